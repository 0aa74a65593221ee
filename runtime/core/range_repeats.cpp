#include "core/range_repeats.h"

#include "core/thread_registry.h"

#include <atomic>

namespace numaperf {

namespace {
std::atomic<RangeRepeatCounter> g_counter{nullptr};
}  // namespace

void setRangeRepeatCounter(RangeRepeatCounter counter) {
  g_counter.store(counter, std::memory_order_release);
}

void flushRangeRepeats(ThreadState &t, uintptr_t lo, uintptr_t hi) {
  RangeRepeats &rr = t.repeats;
  if (!rr.pending_slots) return;
  const RangeRepeatCounter count = g_counter.load(std::memory_order_acquire);
  for (unsigned i = 0; i < RangeRepeats::kSlots; ++i) {
    const uint32_t bit = 1u << i;
    RangeRepeat &r = rr.slots[i];
    if (!(rr.pending_slots & bit) || r.hi <= lo || r.lo >= hi) continue;
    if (count && r.pending) count(t, r);
    r.pending = 0;
    rr.pending_slots &= ~bit;
  }
}

}  // namespace numaperf
