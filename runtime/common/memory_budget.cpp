#include "common/memory_budget.h"

#include "common/internal_alloc.h"

#include <atomic>

namespace numaperf {
namespace {

std::atomic<uint64_t> g_limit{0};
// A page refused detail asks again at its next remote access, so refusals
// can be as frequent as accesses: counted in per-thread slots (one cache
// line each) rather than in one contended counter.
constexpr unsigned kSlots = 64;
struct alignas(64) Slot {
  std::atomic<uint64_t> n{0};
};
Slot g_dropped[kSlots];
std::atomic<unsigned> g_next_slot{0};
__thread unsigned t_slot __attribute__((tls_model("initial-exec"))) = kSlots;

Slot &mySlot() {
  if (t_slot == kSlots) t_slot = g_next_slot.fetch_add(1, std::memory_order_relaxed) % kSlots;
  return g_dropped[t_slot];
}

}  // namespace

void setMemoryLimitBytes(uint64_t bytes) { g_limit.store(bytes, std::memory_order_relaxed); }
uint64_t memoryLimitBytes() { return g_limit.load(std::memory_order_relaxed); }

bool detailAllocationAllowed() {
  uint64_t limit = g_limit.load(std::memory_order_relaxed);
  if (limit == 0 || internalBytesMapped() < limit) return true;
  mySlot().n.fetch_add(1, std::memory_order_relaxed);
  return false;
}

uint64_t detailAllocationsDropped() {
  uint64_t total = 0;
  for (const Slot &s : g_dropped) total += s.n.load(std::memory_order_relaxed);
  return total;
}

}  // namespace numaperf
