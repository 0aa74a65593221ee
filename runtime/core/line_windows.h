// Time-window sampling of the lines threads fight over (docs/sampling.md,
// "Hot lines").
//
// On a line that changes hands at nearly every access (a shared histogram's
// bins, an array of per-thread counters, a lock) the exact copy model costs
// one coherence transfer of the line's LineShare per access: every access
// changes its holder state, and the record moves from core to core with it.
// Once such a line's verdict is settled (it has word detail, and its last
// kLineWindowCheck invalidations came in quick succession) it is modelled
// only in global time windows: one window of 2^shift clock ticks in every
// `rate`, the same windows for every thread (taken from the processor's
// time-stamp counter), and what the model counts in them is weighted by
// `rate`. Outside the windows its accesses are still counted as reads and
// writes of the page, but the line model is not run.
//
// What the model counts in a window is weighted by how many accesses each
// modelled one stands for: the thread's accesses to sampled lines over those
// it modelled (LineWindowTally). Not by `rate`: a modelled access is much
// slower than a skipped one, so the windows, 1/rate of the time, hold far
// fewer than 1/rate of the accesses.
//
// A copy is invalidated by a write that follows another thread's access to
// the line. On these lines the two are far less than a window apart, so
// both fall in the same window, and the windows see 1/rate of the line's
// traffic as it is. (On lines touched now and then the pair straddles
// windows and a time sample loses it: those are never sampled.)
#pragma once

#include "core/overhead_meter.h"
#include "core/shadow_memory.h"

#include <atomic>
#include <cstdint>

namespace numaperf {

// LineShare::sampling: modelled in windows now; was at some point since the
// line's counts were last taken (the report marks its object's counts).
constexpr uint16_t kLineSampledNow = 1;
constexpr uint16_t kLineWasSampled = 2;

// The line's rate is judged each time its invalidations pass a multiple of
// this many (weighted counts).
constexpr uint64_t kLineWindowCheck = 1024;
// Sampled while those invalidations come at least this many per window on
// average: then a window holds hundreds of the line's accesses, and pairs
// cut by a window's edge are few.
constexpr uint64_t kLineWindowMinPerWindow = 8;

struct LineWindowConfig {
  uint32_t rate = 1;  // one window in `rate` modelled (a power of two); 0 or 1: every access
};

// Applies the configuration (rounded down to a power of two). Sampling stays
// off where the processor has no clock every core reads alike.
void setLineWindows(const LineWindowConfig &config);
// The weight of a modelled access to a sampled line: 1 when sampling is off.
uint32_t lineWindowRate();
// Lines that were ever sampled, for the report's note.
uint64_t linesSampledInWindows();

// Tests drive the clock themselves (nullptr: the processor's counter).
void setLineWindowClockForTesting(uint64_t (*clock)());
// Window length in clock ticks is 2^lineWindowShift().
unsigned lineWindowShift();

namespace line_windows_detail {
extern uint32_t g_rate_mask;  // rate - 1; 0: sampling off
extern unsigned g_shift;
extern uint64_t (*g_test_clock)();
}  // namespace line_windows_detail

inline uint64_t lineWindowClock() {
  if (__builtin_expect(line_windows_detail::g_test_clock != nullptr, 0))
    return line_windows_detail::g_test_clock();
  // Every core reads the same count at the same moment (an invariant TSC,
  // the ARM generic timer): windows are global.
  return readCycleCounter();
}

// A thread reads the clock at one access to a sampled line in this many and
// keeps the answer for the others: reading it costs as much as the rest of
// a skipped access, and at tens of millions of accesses a second this many
// take microseconds, far less than a window.
constexpr uint32_t kLineWindowClockEvery = 32;

// A thread's accesses to sampled lines, modelled and skipped, and the weight
// of a modelled one: (modelled + skipped) / modelled in 16.16 fixed point,
// worked out again every kWeightRefresh modelled accesses; the fraction
// carries over from one access to the next, so the weights add up to the
// ratio. Both counts are halved now and then, so the ratio follows the
// program's phases.
struct LineWindowTally {
  uint64_t modelled = 0;
  uint64_t skipped = 0;
  uint32_t weight = 1u << 16;
  uint32_t carry = 0;
  uint32_t until_refresh = 0;
  uint32_t until_clock = 0;  // accesses left before the clock is read again
  bool window_open = false;
  // 1 + the window of that reading, modulo 2^16. Never 0 in an open window
  // (open windows are multiples of the rate, at least 2, so the window
  // before a wrap is closed): LineShare::counting_window 0 is "none".
  uint16_t window = 0;
};
constexpr uint32_t kWeightRefresh = 64;
constexpr uint64_t kTallyHalving = uint64_t(1) << 24;

namespace line_windows_detail {
extern __thread LineWindowTally t_tally __attribute__((tls_model("initial-exec")));
void refreshWeight(LineWindowTally &t);
}  // namespace line_windows_detail

// Whether a sampled line is modelled now (as of the thread's last reading
// of the clock).
inline bool lineWindowOpen() {
  // t_tally is named at each use, not bound to a reference: GCC 12 with
  // -fsanitize=undefined reported that reference as null here (a false
  // report, the address is the thread's), in one inlining context only.
  using namespace line_windows_detail;
  if (__builtin_expect(t_tally.until_clock == 0, 0)) {
    t_tally.until_clock = kLineWindowClockEvery;
    const uint64_t window = lineWindowClock() >> g_shift;
    t_tally.window_open = (window & g_rate_mask) == 0;
    t_tally.window = uint16_t(window + 1);
  }
  --t_tally.until_clock;
  return t_tally.window_open;
}

// `n` accesses of the thread to a sampled line left out of the model. Not
// counted before the thread has modelled any: the weight is refreshed at the
// first modelled access, and all the accesses skipped since a line was first
// sampled, shared by the 64 modelled next, would make each stand for
// thousands (a short program's counts came out five times too high). What
// this leaves out is at most one cycle of windows of the thread's accesses.
inline void noteLineSkipped(uint64_t n) {
  LineWindowTally &t = line_windows_detail::t_tally;
  if (t.modelled) t.skipped += n;
}

// `n` accesses of the thread to a sampled line about to be modelled: how
// many accesses the first of them stands for (at least 1).
inline uint32_t lineWindowWeight(uint64_t n) {
  LineWindowTally &t = line_windows_detail::t_tally;
  t.modelled += n;
  if (__builtin_expect(t.until_refresh == 0, 0)) line_windows_detail::refreshWeight(t);
  --t.until_refresh;
  const uint64_t sum = uint64_t(t.weight) + t.carry;
  t.carry = uint32_t(sum & 0xffff);
  const uint32_t w = uint32_t(sum >> 16);
  return w ? w : 1;
}

namespace line_windows_detail {
void judgeLineRateAtCheck(LineShare &l);
}  // namespace line_windows_detail

// After `added` invalidations took the line's count from `before`: at each
// multiple of kLineWindowCheck, starts or stops sampling the line by how
// fast the last ones came. Lines without word detail are never sampled.
// Inline so that with sampling off (the default) an invalidation pays one
// test of a global, not a call.
inline void judgeLineRate(LineShare &l, uint64_t before, uint64_t added) {
  if (__builtin_expect(line_windows_detail::g_rate_mask == 0, 1)) return;
  if (before / kLineWindowCheck == (before + added) / kLineWindowCheck) return;
  line_windows_detail::judgeLineRateAtCheck(l);
}

// How many of the `copies` a write to a line modelled in windows finds
// count. All of them, except at the line's first invalidating write in a
// window: the holders it finds are left from the last open window, and
// some stopped using the line since (a thread that was descheduled, or
// moved on to other data); in the program their copies went once, but
// counted here they would be weighted, and again in every window they
// stay stale. Yet the line did change hands just before the window opened,
// about as often as inside it, so that write counts one copy: dropping it
// too lost one change of hands per line and window, a sixth of the count on
// lines that change hands a few times a window (a shared histogram's bins
// at 2 threads, docs/sampling.md).
inline uint32_t windowedCopies(LineShare &l, uint32_t copies) {
  const uint16_t window = line_windows_detail::t_tally.window;
  if (l.counting_window.load(std::memory_order_relaxed) == window) return copies;
  l.counting_window.store(window, std::memory_order_relaxed);
  return copies < 1 ? copies : 1;
}

// Forgets the line's sampling (its counts were taken or emptied).
inline void clearLineSampling(LineShare &l) {
  l.sampling.store(0, std::memory_order_relaxed);
  l.window_stamp.store(0, std::memory_order_relaxed);
  l.counting_window.store(0, std::memory_order_relaxed);
}

}  // namespace numaperf
