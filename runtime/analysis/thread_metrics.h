// Pure computations behind the thread report (docs/threads.md): parallel
// phase, thread-migration score, shares of work per thread type and the
// suggested thread counts. No runtime state: unit-tested on their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace numaperf {

struct Interval {
  uint64_t start = 0;
  uint64_t end = 0;  // end < start is treated as empty
};

// Fraction of [run_start, run_end] during which two or more intervals
// overlap (intervals are clipped to the run). 0 for an empty run.
double parallelPhase(std::vector<Interval> intervals, uint64_t run_start, uint64_t run_end);

// The same over the profiled periods (in time order, not overlapping): the
// fraction of profiled time during which two or more intervals overlap,
// since the synchronisation counts behind the migration score are taken
// only then. 0 without profiled time.
double parallelPhaseOver(const std::vector<Interval> &intervals,
                         const std::vector<Interval> &periods);

// NumaPerf's S = p * sum_t m_t / (run seconds * |T|): possible migrations per
// thread per second, weighted by the parallel phase p. 0 without threads or
// time.
double migrationScore(double parallel_phase, uint64_t events, double run_seconds,
                      uint64_t threads);
// The seconds the synchronisation counts cover: they are only counted while
// profiling is switched on, so the profiled time when profiling did not
// cover the whole run (and some time was profiled), else the run time.
double syncCountSeconds(double run_seconds, bool always_on, double profiled_ms);
// The machine-independent form: p * sum_t m_t per 1000 instrumented accesses
// of all threads (thread-accesses take the place of thread-seconds). 0
// without access data.
double migrationNormalizedScore(double parallel_phase, uint64_t events, uint64_t accesses);

// Each entry's share of the sum (all 0 when the sum is 0).
std::vector<double> sharesOf(const std::vector<uint64_t> &accesses);

// Largest over smallest accesses per thread among the groups with threads
// (1 with fewer than two such groups; the smallest is taken as at least 1
// access, so a group without accesses gives a large finite ratio).
double perThreadRatio(const std::vector<uint64_t> &accesses,
                      const std::vector<uint64_t> &threads);

// Groups of indices whose interval sets overlap in time, directly or through
// other members (connected components). sets[i] lists the intervals of
// group i (e.g. the lifetimes of the threads of one type). Components are in
// order of their smallest member; members ascending.
std::vector<std::vector<size_t>> concurrentGroups(const std::vector<std::vector<Interval>> &sets);

// The part of `life` that profiling covered, from its first to its last
// profiled instant (`periods`: the profiled periods, in time order, not
// overlapping); nullopt when no period overlaps it. A thread's accesses
// are counted only then, so this is the time its work can be compared over.
std::optional<Interval> profiledSpan(Interval life, const std::vector<Interval> &periods);

// Splits `total` threads among groups in proportion to `shares` (largest
// remainder), giving every group at least one thread when total allows.
// Equal split when all shares are 0.
std::vector<uint64_t> suggestThreads(const std::vector<double> &shares, uint64_t total);

}  // namespace numaperf
