// Range hooks that repeat their call site's previous call exactly (same
// start, stride, count and size), counted later in one go.
//
// A loop nest that re-reads or rewrites one row for every row of another
// (a matrix multiply's row of C, once per row of B) reports the same range
// again and again, and each report walked the row page by page. When the
// last walk of that range met only pages private to the thread and pages
// sampled away (whose counts do not depend on when they are made: no copy
// model runs on them), the repeats are only counted here and walked once,
// multiplied, when the call site reports something else, after 256 of them,
// when the thread's counts are flushed (exit, report) or when it frees
// memory the range covers. A range that touched a page modelled in full
// (shared, with line states) is walked at every call: there the order of
// threads' accesses is what the model is about.
#pragma once

#include <cstdint>

namespace numaperf {

struct ThreadState;

struct RangeRepeat {
  uintptr_t pc = 0;     // the hook's call site; 0: slot unused
  uintptr_t start = 0;  // as the hook got them
  int64_t stride = 0;
  uint64_t count = 0, size = 0;
  uintptr_t lo = 0, hi = 0;  // the bytes the range covers
  uint64_t step = 0;         // |stride|: the range is walked upwards from lo
  bool is_write = false;
  bool countable = false;  // its last walk met only private and sampled-away pages
  uint32_t pending = 0;    // calls not counted yet

  bool same(uintptr_t p, uintptr_t s, int64_t st, uint64_t n, uint64_t z, bool w) const {
    return pc == p && start == s && stride == st && count == n && size == z && is_write == w;
  }
};

struct RangeRepeats {
  static constexpr unsigned kSlotBits = 3;
  static constexpr unsigned kSlots = 1u << kSlotBits;
  static constexpr uint32_t kMaxPending = 256;
  RangeRepeat slots[kSlots];
  uint32_t pending_slots = 0;  // bit i: slots[i] has pending calls

  unsigned slotOf(uintptr_t pc) const {
    return unsigned((uint64_t(pc) * 0x9e3779b97f4a7c15ull) >> (64 - kSlotBits));
  }
};

// Counts the pending calls of `t` whose ranges overlap [lo, hi).
void flushRangeRepeats(ThreadState &t, uintptr_t lo = 0, uintptr_t hi = ~uintptr_t(0));

// The walk that counts a slot's pending calls lives with the hooks
// (access_hooks.cpp), which register it when the runtime library loads;
// the core, linked without the hooks into unit tests, never has pending
// calls without it.
using RangeRepeatCounter = void (*)(ThreadState &t, RangeRepeat &r);
void setRangeRepeatCounter(RangeRepeatCounter counter);

}  // namespace numaperf
