#include "core/mempolicy_registry.h"

#include "common/spin_lock.h"

#include <atomic>

namespace numaperf {
namespace {

constexpr unsigned kCapacity = 256;       // policy ranges
constexpr unsigned kTaskCapacity = 1024;  // threads with their own task policy

struct StoredRange {
  uintptr_t start = 0, end = 0;
  MemPolicy policy = MemPolicy::kUnset;
};

SpinLock g_lock;
StoredRange g_ranges[kCapacity];
unsigned g_count = 0;
std::atomic<uint64_t> g_dropped{0};
std::atomic<bool> g_any_range{false};  // lets folds skip the lock in programs without policies
// Task policies by owner tag (index 0: the process default). Threads past
// the capacity fall back to the default.
std::atomic<uint8_t> g_task[kTaskCapacity];
std::atomic<bool> g_any_task{false};

void removeAt(unsigned i) { g_ranges[i] = g_ranges[--g_count]; }

void append(uintptr_t start, uintptr_t end, MemPolicy policy) {
  if (g_count == kCapacity) {
    g_dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  g_ranges[g_count++] = StoredRange{start, end, policy};
}

// Cuts [start, end) out of every recorded range (caller holds the lock).
void carve(uintptr_t start, uintptr_t end) {
  for (unsigned i = 0; i < g_count;) {
    StoredRange r = g_ranges[i];
    if (r.end <= start || r.start >= end) {
      ++i;
      continue;
    }
    removeAt(i);  // the slot now holds an unvisited range: do not advance
    if (r.start < start) append(r.start, start, r.policy);
    if (r.end > end) append(end, r.end, r.policy);
  }
}

}  // namespace

void recordRangePolicy(uintptr_t start, size_t len, MemPolicy policy) {
  if (!len || (policy == MemPolicy::kUnset && !g_any_range.load(std::memory_order_acquire))) return;
  uintptr_t end = start + len < start ? ~uintptr_t(0) : start + len;
  SpinLockGuard guard(g_lock);
  carve(start, end);
  if (policy != MemPolicy::kUnset) append(start, end, policy);
  g_any_range.store(g_count != 0, std::memory_order_release);
}

void forgetRangePolicy(uintptr_t start, size_t len) {
  recordRangePolicy(start, len, MemPolicy::kUnset);
}

void recordTaskPolicy(uint32_t owner_tag, MemPolicy policy) {
  if (owner_tag >= kTaskCapacity) return;
  g_task[owner_tag].store(uint8_t(policy), std::memory_order_relaxed);
  if (owner_tag == 1) g_task[0].store(uint8_t(policy), std::memory_order_relaxed);
  if (policy == MemPolicy::kInterleave) g_any_task.store(true, std::memory_order_release);
}

PolicyView::PolicyView(uintptr_t start, uintptr_t end) {
  any_task_policy_ = g_any_task.load(std::memory_order_acquire);
  if (!g_any_range.load(std::memory_order_acquire)) return;
  SpinLockGuard guard(g_lock);
  for (unsigned i = 0; i < g_count && count_ < kMaxRanges; ++i) {
    const StoredRange &r = g_ranges[i];
    if (r.end > start && r.start < end) ranges_[count_++] = {r.start, r.end, r.policy};
  }
}

bool PolicyView::interleaved(uintptr_t page, uint32_t owner_tag) const {
  for (unsigned i = 0; i < count_; ++i)
    if (page >= ranges_[i].start && page < ranges_[i].end)
      return ranges_[i].policy == MemPolicy::kInterleave;
  if (!any_task_policy_) return false;
  MemPolicy own = owner_tag < kTaskCapacity
                      ? MemPolicy(g_task[owner_tag].load(std::memory_order_relaxed))
                      : MemPolicy::kUnset;
  if (own == MemPolicy::kUnset) own = MemPolicy(g_task[0].load(std::memory_order_relaxed));
  return own == MemPolicy::kInterleave;
}

uint64_t droppedPolicyRanges() { return g_dropped.load(std::memory_order_relaxed); }

void policyRegistryLock() { g_lock.lock(); }
void policyRegistryUnlock() { g_lock.unlock(); }

void resetPolicyRegistry() {
  SpinLockGuard guard(g_lock);
  g_count = 0;
  g_any_range.store(false);
  g_dropped.store(0);
  for (auto &t : g_task) t.store(0, std::memory_order_relaxed);
  g_any_task.store(false);
}

}  // namespace numaperf
