// Pure computations of the thread report: parallel phase, migration score,
// shares, suggestions, concurrency groups.
#include "analysis/thread_metrics.h"

#include <gtest/gtest.h>

using namespace numaperf;

TEST(ParallelPhase, SingleThreadIsSerial) {
  EXPECT_DOUBLE_EQ(parallelPhase({{0, 100}}, 0, 100), 0.0);
}

TEST(ParallelPhase, OverlapFraction) {
  // main all along, one worker from 20 to 70: half of the run is parallel.
  EXPECT_DOUBLE_EQ(parallelPhase({{0, 100}, {20, 70}}, 0, 100), 0.5);
  // Two workers back to back: still two alive from 20 to 80.
  EXPECT_DOUBLE_EQ(parallelPhase({{0, 100}, {20, 50}, {50, 80}}, 0, 100), 0.6);
}

TEST(ParallelPhase, TouchingIntervalsDoNotOverlap) {
  EXPECT_DOUBLE_EQ(parallelPhase({{0, 50}, {50, 100}}, 0, 100), 0.0);
}

TEST(ParallelPhase, ClippedToRunAndEmptyRun) {
  EXPECT_DOUBLE_EQ(parallelPhase({{0, 1000}, {0, 1000}}, 100, 200), 1.0);
  EXPECT_DOUBLE_EQ(parallelPhase({{0, 1000}, {0, 1000}}, 200, 200), 0.0);
  EXPECT_DOUBLE_EQ(parallelPhase({{10, 5}, {0, 100}}, 0, 100), 0.0);  // empty interval
}

TEST(ParallelPhase, ManyShortThreadsUnderMain) {
  std::vector<Interval> v{{0, 2000}};
  for (uint64_t i = 0; i < 1000; ++i) v.push_back({i * 2, i * 2 + 1});  // alive half the time
  EXPECT_DOUBLE_EQ(parallelPhase(v, 0, 2000), 0.5);
}

TEST(ParallelPhase, OverTheProfiledPeriodsOnly) {
  // main all along, workers from 20 to 50: profiled 0-10 (serial) and
  // 20-50 (parallel) gives 30 of 40 profiled units parallel; profiling the
  // parallel part only gives 1, the serial part only 0.
  const std::vector<Interval> threads{{0, 100}, {20, 50}, {20, 50}};
  EXPECT_DOUBLE_EQ(parallelPhaseOver(threads, {{0, 10}, {20, 50}}), 0.75);
  EXPECT_DOUBLE_EQ(parallelPhaseOver(threads, {{25, 45}}), 1.0);
  EXPECT_DOUBLE_EQ(parallelPhaseOver(threads, {{60, 90}}), 0.0);
  EXPECT_DOUBLE_EQ(parallelPhaseOver(threads, {}), 0.0);
  // One period covering the run is the whole-run figure.
  EXPECT_DOUBLE_EQ(parallelPhaseOver(threads, {{0, 100}}), parallelPhase(threads, 0, 100));
}

TEST(MigrationScore, PaperFormula) {
  // p = 0.5, 4000 events, 2 s, 4 threads: 0.5 * 4000 / (2 * 4) = 250.
  EXPECT_DOUBLE_EQ(migrationScore(0.5, 4000, 2.0, 4), 250.0);
  EXPECT_DOUBLE_EQ(migrationScore(1.0, 0, 2.0, 4), 0.0);
  EXPECT_DOUBLE_EQ(migrationScore(1.0, 10, 0.0, 4), 0.0);
  EXPECT_DOUBLE_EQ(migrationScore(1.0, 10, 1.0, 0), 0.0);
}

TEST(MigrationScore, MoreThreadsSameRatePerThreadSameScore) {
  // Twice the threads doing the same per-thread work: same score.
  EXPECT_DOUBLE_EQ(migrationScore(1.0, 1000, 1.0, 2), migrationScore(1.0, 2000, 1.0, 4));
}

// Synchronisation is counted only while profiling is on: its rate is per
// profiled second when profiling did not cover the run.
TEST(MigrationScore, RatesArePerProfiledSecond) {
  EXPECT_DOUBLE_EQ(syncCountSeconds(10.0, true, 0), 10.0);
  EXPECT_DOUBLE_EQ(syncCountSeconds(10.0, true, 10000), 10.0);
  EXPECT_DOUBLE_EQ(syncCountSeconds(10.0, false, 2500), 2.5);
  EXPECT_DOUBLE_EQ(syncCountSeconds(10.0, false, 0), 10.0);  // never on: no counts anyway
}

TEST(MigrationScore, NormalizedPerThousandAccesses) {
  EXPECT_DOUBLE_EQ(migrationNormalizedScore(0.5, 200, 100000), 1.0);
  EXPECT_DOUBLE_EQ(migrationNormalizedScore(1.0, 200, 0), 0.0);
}

TEST(Shares, SumToOne) {
  auto s = sharesOf({900, 100});
  EXPECT_DOUBLE_EQ(s[0], 0.9);
  EXPECT_DOUBLE_EQ(s[1], 0.1);
  auto z = sharesOf({0, 0});
  EXPECT_EQ(z, (std::vector<double>{0, 0}));
  EXPECT_TRUE(sharesOf({}).empty());
}

TEST(PerThreadRatio, ComparesAccessesPerThread) {
  // 9:1 work with 2 threads each: 9.
  EXPECT_DOUBLE_EQ(perThreadRatio({900, 100}, {2, 2}), 9.0);
  // 9:1 work with 9:1 threads: balanced.
  EXPECT_DOUBLE_EQ(perThreadRatio({900, 100}, {9, 1}), 1.0);
  EXPECT_DOUBLE_EQ(perThreadRatio({900}, {3}), 1.0);
  // A type without instrumented accesses counts as one access per thread.
  EXPECT_DOUBLE_EQ(perThreadRatio({1000, 0}, {1, 1}), 1000.0);
  // Groups without threads are ignored.
  EXPECT_DOUBLE_EQ(perThreadRatio({1000, 5}, {1, 0}), 1.0);
}

TEST(SuggestThreads, ProportionalToShares) {
  EXPECT_EQ(suggestThreads({0.9, 0.1}, 10), (std::vector<uint64_t>{9, 1}));
  EXPECT_EQ(suggestThreads({0.9, 0.1}, 20), (std::vector<uint64_t>{18, 2}));
  EXPECT_EQ(suggestThreads({0.5, 0.5}, 4), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(suggestThreads({0.25, 0.75}, 8), (std::vector<uint64_t>{2, 6}));
}

TEST(SuggestThreads, AtLeastOneEachAndExactTotal) {
  EXPECT_EQ(suggestThreads({0.9, 0.1}, 4), (std::vector<uint64_t>{3, 1}));
  EXPECT_EQ(suggestThreads({0.99, 0.005, 0.005}, 3), (std::vector<uint64_t>{1, 1, 1}));
  EXPECT_EQ(suggestThreads({0.98, 0.01, 0.01}, 10), (std::vector<uint64_t>{8, 1, 1}));
  for (uint64_t total = 3; total < 50; ++total) {
    auto v = suggestThreads({0.6, 0.3, 0.1}, total);
    EXPECT_EQ(v[0] + v[1] + v[2], total);
    EXPECT_GE(v[2], 1u);
    EXPECT_GE(v[0], v[1]);
    EXPECT_GE(v[1], v[2]);
  }
}

TEST(SuggestThreads, FewerThreadsThanTypesAndZeroShares) {
  EXPECT_EQ(suggestThreads({0.9, 0.1}, 1), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(suggestThreads({0, 0}, 4), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(suggestThreads({0.5, 0.5}, 0), (std::vector<uint64_t>{0, 0}));
  EXPECT_TRUE(suggestThreads({}, 4).empty());
}

TEST(ConcurrentGroups, SeparatesPhases) {
  // Types 0 and 2 run together; type 1 runs later on its own.
  auto g = concurrentGroups({{{0, 10}, {1, 9}}, {{20, 30}}, {{5, 12}}});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0], (std::vector<size_t>{0, 2}));
  EXPECT_EQ(g[1], (std::vector<size_t>{1}));
}

TEST(ConcurrentGroups, TransitiveAndTouching) {
  // 0 overlaps 1, 1 overlaps 2: one group. 3 only touches 2's end.
  auto g = concurrentGroups({{{0, 10}}, {{8, 20}}, {{18, 30}}, {{30, 40}}});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0], (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(g[1], (std::vector<size_t>{3}));
}

TEST(ConcurrentGroups, ManyIntervalsOfOneSetAroundAnother) {
  std::vector<Interval> a;
  for (uint64_t i = 0; i < 100; ++i) a.push_back({i * 10, i * 10 + 5});
  auto g = concurrentGroups({a, {{996, 999}}, {{503, 504}}});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0], (std::vector<size_t>{0, 2}));
  EXPECT_EQ(g[1], (std::vector<size_t>{1}));
}

TEST(ProfiledSpan, ClipsALifetimeToTheProfiledPeriods) {
  const std::vector<Interval> periods{{10, 20}, {40, 50}, {70, 80}};
  // Inside one period, across two (the span runs from the first profiled
  // instant to the last), covering all, and between periods.
  EXPECT_EQ(profiledSpan({12, 15}, periods)->start, 12u);
  EXPECT_EQ(profiledSpan({12, 15}, periods)->end, 15u);
  auto across = profiledSpan({15, 45}, periods);
  ASSERT_TRUE(across);
  EXPECT_EQ(across->start, 15u);
  EXPECT_EQ(across->end, 45u);
  auto all = profiledSpan({0, 100}, periods);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->start, 10u);
  EXPECT_EQ(all->end, 80u);
  EXPECT_FALSE(profiledSpan({20, 40}, periods));  // touching is not overlapping
  EXPECT_FALSE(profiledSpan({85, 99}, periods));
  EXPECT_FALSE(profiledSpan({12, 15}, {}));
}
