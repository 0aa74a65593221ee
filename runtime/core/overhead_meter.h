// Measures how much of the run the access hooks take, so that per-ms scores
// can be expressed per ms of the program's own (uninstrumented) time: a
// score per ms of profiled wall time falls as the profiler slows the program
// down, and an issue would then hide behind the profiler's own cost.
//
// One hook call in about kMeanPeriod is timed with the CPU's cycle counter,
// and so is the program's own run from that call's return to the next hook
// call (the "gap"). Measuring both keeps the estimate of the program's own
// time accurate when the hooks take most of the run: subtracting an
// estimated hook time from the wall time would magnify its error. The
// period is drawn at random per sample (no aliasing with loop shapes) and
// each sample stands for the calls of its period. The hot path pays one
// decrement and one branch per call.
#pragma once

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace numaperf {

inline uint64_t readCycleCounter() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#elif defined(__aarch64__)
  uint64_t v;
  asm volatile("mrs %0, cntvct_el0" : "=r"(v));
  return v;
#else
  return 0;  // no cheap counter: the meter stays empty (scores use wall time)
#endif
}

struct OverheadMeter {
  static constexpr uint32_t kMeanPeriod = 1024;
  // A sample longer than this many ticks (a few hundred us) was preempted,
  // or the thread slept: it is dropped, since one time slice would
  // otherwise stand for a thousand calls. Gaps in which the thread waited in
  // an intercepted call (lock, condition, barrier, join) are dropped too.
  static constexpr uint64_t kMaxSampleTicks = uint64_t(1) << 20;

  uint32_t countdown = kMeanPeriod;
  uint32_t period = kMeanPeriod;  // calls the current sample stands for
  uint32_t rng = 0x9e3779b9u;
  bool gap_open = false;          // the next call closes a gap sample
  uint64_t gap_start = 0;         // ticks when the sampled call returned
  uint64_t gap_epoch = 0;         // the thread's wait count then
  uint64_t hook_samples = 0, gap_samples = 0;
  uint64_t hook_ticks = 0;        // sum of hook sample ticks x period
  uint64_t gap_ticks = 0;         // sum of gap sample ticks x period
  // The runtime's own work in interceptors (allocation tracking: stack
  // capture, block records, folding a freed block's counts), every call
  // timed. It happens between hook calls, so the gaps count it as the
  // program's; it is taken out of their estimate.
  uint64_t runtime_ticks = 0;

  // The call that took the countdown to zero: returns the start tick when
  // this call is to be timed, 0 when it only closes a gap.
  uint64_t sampleEntry(uint64_t wait_epoch) {
    uint64_t now = readCycleCounter();
    if (gap_open) {
      uint64_t gap = now - gap_start;
      if (gap < kMaxSampleTicks && wait_epoch == gap_epoch) {
        gap_ticks += gap * period;
        ++gap_samples;
      }
      gap_open = false;
      nextPeriod();
      return 0;
    }
    return now | 1;
  }
  void sampleExit(uint64_t start, uint64_t wait_epoch) {
    uint64_t now = readCycleCounter();
    uint64_t took = now - start;
    if (took < kMaxSampleTicks) {
      hook_ticks += took * period;
      ++hook_samples;
    }
    gap_open = true;
    gap_start = readCycleCounter();
    gap_epoch = wait_epoch;
    countdown = 1;  // the next call ends the gap
  }

 private:
  void nextPeriod() {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    period = kMeanPeriod / 2 + rng % kMeanPeriod;  // uniform, mean kMeanPeriod
    countdown = period;
  }
};

// Times the enclosing call when the meter's countdown runs out: one
// decrement and one branch otherwise. `wait_epoch()` gives the thread's
// count of waits (called only when sampling).
template <typename WaitEpoch>
class SampledTimer {
 public:
  SampledTimer(OverheadMeter &m, WaitEpoch wait_epoch)
      : meter_(m), wait_epoch_(wait_epoch), start_(0) {
    if (__builtin_expect(--m.countdown == 0, 0)) start_ = m.sampleEntry(wait_epoch_());
  }
  ~SampledTimer() {
    if (__builtin_expect(start_ != 0, 0)) meter_.sampleExit(start_, wait_epoch_());
  }
  SampledTimer(const SampledTimer &) = delete;
  SampledTimer &operator=(const SampledTimer &) = delete;

 private:
  OverheadMeter &meter_;
  WaitEpoch wait_epoch_;
  uint64_t start_;
};

// Times the runtime's work in an interceptor, every call (allocations are
// far rarer than accesses): two cycle-counter reads. No meter, no timing.
class RuntimeWorkTimer {
 public:
  explicit RuntimeWorkTimer(OverheadMeter *m) : meter_(m), start_(m ? readCycleCounter() : 0) {}
  ~RuntimeWorkTimer() {
    if (meter_) meter_->runtime_ticks += readCycleCounter() - start_;
  }
  RuntimeWorkTimer(const RuntimeWorkTimer &) = delete;
  RuntimeWorkTimer &operator=(const RuntimeWorkTimer &) = delete;

 private:
  OverheadMeter *meter_;
  uint64_t start_;
};

// The run's measured hook time, for the report.
struct HookTimeEstimate {
  bool measured = false;  // a cycle counter exists and both kinds of samples were taken
  double hook_ms = 0;     // estimated time in hooks, all threads
  double own_ms = 0;      // estimated time between hooks, all threads
  double runtime_ms = 0;  // of own_ms, the runtime's work in interceptors (measured)
  uint64_t samples = 0;
  // The profiler's share of the threads' running time: the hooks, and its
  // work between them (never more than the gaps' whole estimate).
  double hookShare() const {
    const double total = hook_ms + own_ms;
    return total > 0 ? (hook_ms + std::min(runtime_ms, own_ms)) / total : 0;
  }
};

// Adds an exiting thread's meter to the run's totals (and empties it).
void retireOverheadMeter(OverheadMeter &m);
// Remembers the cycle counter and the clock at start-up (for the tick rate).
void startOverheadClock();
// Sums the threads' meters and converts ticks to ms.
HookTimeEstimate estimateHookTime();
// `basis_ms` (the wall or profiled time the scores divide by) less the
// hooks' share of it. Never below a thousandth of `basis_ms`.
double nativeEquivalentMs(double basis_ms, const HookTimeEstimate &e);

}  // namespace numaperf
