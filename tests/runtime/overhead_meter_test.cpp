#include "core/overhead_meter.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace numaperf;

namespace {

// Busy-waits `ticks` cycle-counter ticks.
void spinTicks(uint64_t ticks) {
  uint64_t start = readCycleCounter();
  while (readCycleCounter() - start < ticks) {
  }
}

// Runs `calls` instrumented-looking calls: `hook` ticks inside a timed
// call, then `own` ticks of the program's own work. `wait_every`: the wait
// epoch grows every that many calls (0: never).
OverheadMeter simulate(uint64_t calls, uint64_t hook, uint64_t own, uint64_t wait_every) {
  OverheadMeter m;
  uint64_t epoch = 0;
  for (uint64_t i = 0; i < calls; ++i) {
    {
      SampledTimer timer(m, [&] { return epoch; });
      spinTicks(hook);
    }
    if (wait_every && i % wait_every == 0) ++epoch;
    spinTicks(own);
  }
  return m;
}

bool haveCycleCounter() { return readCycleCounter() != 0; }

}  // namespace

TEST(OverheadMeter, SplitsHookTimeFromTheProgramsOwnTime) {
  if (!haveCycleCounter()) GTEST_SKIP() << "no cycle counter on this architecture";
  // Hooks take a quarter of the run. Up to three tries: a preemption during
  // one run (2 CPUs shared with the rest of the suite) skews it.
  OverheadMeter m;
  double share = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    m = simulate(400000, 300, 900, 0);
    share = double(m.hook_ticks) / double(m.hook_ticks + m.gap_ticks);
    if (std::fabs(share - 0.25) <= 0.08) break;
  }
  ASSERT_GT(m.hook_samples, 200u);
  ASSERT_GT(m.gap_samples, 200u);
  EXPECT_NEAR(share, 0.25, 0.08);
  // Each sample stands for about 1024 calls.
  double calls_per_sample = 400000.0 / double(m.hook_samples);
  EXPECT_GT(calls_per_sample, 700);
  EXPECT_LT(calls_per_sample, 1400);
}

TEST(OverheadMeter, EachSampleStandsForTheCallsOfItsPeriod) {
  if (!haveCycleCounter()) GTEST_SKIP() << "no cycle counter on this architecture";
  // A 15x slowdown: hooks take most of the run. The weighted sums estimate
  // the totals of all calls; compare two runs that differ only in the
  // program's own time per call (the loop and the counter reads add a
  // constant to both).
  // Up to three tries: a preemption during one run (2 CPUs shared with the
  // rest of the suite) skews it.
  const uint64_t calls = 500000;
  double gap_a = 0, gap_b = 0, hook_a = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    OverheadMeter a = simulate(calls, 1400, 100, 0);
    OverheadMeter b = simulate(calls, 1400, 600, 0);
    gap_a = double(a.gap_ticks) / double(a.gap_samples) * double(a.hook_samples) / calls;
    gap_b = double(b.gap_ticks) / double(b.gap_samples) * double(b.hook_samples) / calls;
    hook_a = double(a.hook_ticks) / calls;
    if (std::fabs(gap_b - gap_a - 500) <= 150 && hook_a > 1400 * 0.9 && hook_a < 1400 * 1.3) break;
  }
  EXPECT_NEAR(gap_b - gap_a, 500, 150);
  EXPECT_GT(hook_a, 1400 * 0.9);
  EXPECT_LT(hook_a, 1400 * 1.3);
}

TEST(OverheadMeter, GapsAcrossWaitsAreDropped) {
  if (!haveCycleCounter()) GTEST_SKIP() << "no cycle counter on this architecture";
  OverheadMeter m = simulate(100000, 50, 50, 1);  // waits after every call
  EXPECT_GT(m.hook_samples, 20u);
  EXPECT_EQ(m.gap_samples, 0u);
}

TEST(OverheadMeter, NativeEquivalentTimeUsesTheMeasuredShare) {
  HookTimeEstimate none;
  EXPECT_DOUBLE_EQ(nativeEquivalentMs(1000, none), 1000);  // not measured: wall time
  HookTimeEstimate e;
  e.measured = true;
  e.hook_ms = 900;
  e.own_ms = 100;
  EXPECT_NEAR(nativeEquivalentMs(2000, e), 200, 1e-9);
  e.own_ms = 0;
  EXPECT_NEAR(nativeEquivalentMs(2000, e), 2, 1e-9);  // floor: a thousandth
}

// The runtime's work between hook calls (allocation tracking) is part of
// the gaps' estimate, and is the profiler's time, not the program's.
TEST(OverheadMeter, RuntimeWorkBetweenHooksIsNotTheProgramsTime) {
  HookTimeEstimate e;
  e.measured = true;
  e.hook_ms = 600;
  e.own_ms = 400;
  e.runtime_ms = 100;
  EXPECT_NEAR(e.hookShare(), 0.7, 1e-12);
  EXPECT_NEAR(nativeEquivalentMs(1000, e), 300, 1e-9);
  e.runtime_ms = 1000;  // more than the gaps' estimate: all of it, no more
  EXPECT_NEAR(e.hookShare(), 1.0, 1e-12);
}

TEST(OverheadMeter, RuntimeWorkTimerAddsItsCallsTicks) {
  if (!haveCycleCounter()) GTEST_SKIP() << "no cycle counter on this architecture";
  OverheadMeter m;
  {
    RuntimeWorkTimer timer(&m);
    spinTicks(50000);
  }
  EXPECT_GE(m.runtime_ticks, 50000u);
  EXPECT_EQ(m.hook_samples + m.gap_samples, 0u);  // the sampling is left alone
  { RuntimeWorkTimer no_meter(nullptr); }         // no thread state: nothing timed
}
