#include "analysis/thread_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace numaperf {

double parallelPhase(std::vector<Interval> intervals, uint64_t run_start, uint64_t run_end) {
  if (run_end <= run_start) return 0;
  // Sweep over start (+1) and end (-1) events; ends sort before starts at
  // the same instant so touching intervals do not count as overlap.
  std::vector<std::pair<uint64_t, int>> events;
  events.reserve(intervals.size() * 2);
  for (const Interval &i : intervals) {
    uint64_t s = std::max(i.start, run_start), e = std::min(i.end, run_end);
    if (e <= s) continue;
    events.emplace_back(s, +1);
    events.emplace_back(e, -1);
  }
  std::sort(events.begin(), events.end());
  uint64_t parallel = 0, last = run_start;
  int alive = 0;
  for (const auto &[time, delta] : events) {
    if (alive >= 2) parallel += time - last;
    last = time;
    alive += delta;
  }
  return double(parallel) / double(run_end - run_start);
}

double parallelPhaseOver(const std::vector<Interval> &intervals,
                         const std::vector<Interval> &periods) {
  double parallel = 0;
  uint64_t profiled = 0;
  for (const Interval &p : periods) {
    if (p.end <= p.start) continue;
    parallel += parallelPhase(intervals, p.start, p.end) * double(p.end - p.start);
    profiled += p.end - p.start;
  }
  return profiled ? parallel / double(profiled) : 0;
}

double migrationScore(double parallel_phase, uint64_t events, double run_seconds,
                      uint64_t threads) {
  if (threads == 0 || !(run_seconds > 0)) return 0;
  return parallel_phase * double(events) / (run_seconds * double(threads));
}

double syncCountSeconds(double run_seconds, bool always_on, double profiled_ms) {
  return !always_on && profiled_ms > 0 ? profiled_ms / 1000.0 : run_seconds;
}

double migrationNormalizedScore(double parallel_phase, uint64_t events, uint64_t accesses) {
  if (accesses == 0) return 0;
  return parallel_phase * double(events) * 1000.0 / double(accesses);
}

std::vector<double> sharesOf(const std::vector<uint64_t> &accesses) {
  long double sum = 0;
  for (uint64_t a : accesses) sum += a;
  std::vector<double> shares(accesses.size(), 0.0);
  if (sum > 0)
    for (size_t i = 0; i < accesses.size(); ++i) shares[i] = double(accesses[i] / sum);
  return shares;
}

double perThreadRatio(const std::vector<uint64_t> &accesses,
                      const std::vector<uint64_t> &threads) {
  double lo = 0, hi = 0;
  size_t groups = 0;
  for (size_t i = 0; i < accesses.size() && i < threads.size(); ++i) {
    if (threads[i] == 0) continue;
    double per = std::max(1.0, double(accesses[i]) / double(threads[i]));
    if (groups == 0 || per < lo) lo = per;
    if (groups == 0 || per > hi) hi = per;
    ++groups;
  }
  return groups < 2 ? 1.0 : hi / lo;
}

namespace {

bool overlaps(const Interval &a, const Interval &b) {
  return a.start < b.end && b.start < a.end && a.start < a.end && b.start < b.end;
}

}  // namespace

std::vector<std::vector<size_t>> concurrentGroups(
    const std::vector<std::vector<Interval>> &sets) {
  size_t n = sets.size();
  std::vector<size_t> parent(n);
  for (size_t i = 0; i < n; ++i) parent[i] = i;
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  // Sweep all intervals by start; an interval overlaps every earlier one
  // whose end lies beyond its start. Keeping, per set, only its latest end
  // among the active ones is enough to find every overlapping pair of sets.
  std::vector<std::pair<Interval, size_t>> all;
  for (size_t i = 0; i < n; ++i)
    for (const Interval &iv : sets[i])
      if (iv.start < iv.end) all.push_back({iv, i});
  std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) {
    return a.first.start < b.first.start;
  });
  std::vector<std::pair<uint64_t, size_t>> active;  // (end, set), latest end per set
  for (const auto &[iv, set] : all) {
    size_t keep = 0;
    bool have_self = false;
    for (size_t k = 0; k < active.size(); ++k) {
      if (active[k].first <= iv.start) continue;  // ended: drop
      if (active[k].second == set) {
        active[k].first = std::max(active[k].first, iv.end);
        have_self = true;
      } else {
        size_t a = find(active[k].second), b = find(set);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
      active[keep++] = active[k];
    }
    active.resize(keep);
    if (!have_self) active.emplace_back(iv.end, set);
  }
  std::vector<std::vector<size_t>> groups;
  std::vector<size_t> group_of(n, SIZE_MAX);
  for (size_t i = 0; i < n; ++i) {
    size_t r = find(i);
    if (group_of[r] == SIZE_MAX) {
      group_of[r] = groups.size();
      groups.emplace_back();
    }
    groups[group_of[r]].push_back(i);
  }
  return groups;
}

std::optional<Interval> profiledSpan(Interval life, const std::vector<Interval> &periods) {
  std::optional<Interval> span;
  for (const Interval &p : periods) {
    const uint64_t from = std::max(life.start, p.start), to = std::min(life.end, p.end);
    if (from >= to) continue;
    if (!span) span = Interval{from, to};
    span->start = std::min(span->start, from);
    span->end = std::max(span->end, to);
  }
  return span;
}

std::vector<uint64_t> suggestThreads(const std::vector<double> &shares, uint64_t total) {
  size_t n = shares.size();
  std::vector<uint64_t> out(n, 0);
  if (n == 0 || total == 0) return out;
  double sum = 0;
  for (double s : shares) sum += s > 0 ? s : 0;
  std::vector<double> ideal(n);
  for (size_t i = 0; i < n; ++i)
    ideal[i] = sum > 0 ? (shares[i] > 0 ? shares[i] : 0) / sum * double(total)
                       : double(total) / double(n);
  const uint64_t floor_min = total >= n ? 1 : 0;
  uint64_t assigned = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = std::max<uint64_t>(floor_min, uint64_t(std::floor(ideal[i])));
    assigned += out[i];
  }
  // Hand out what is left to the largest remainders (ties: larger share,
  // then earlier group); take back from the smallest remainders.
  auto remainder = [&](size_t i) { return ideal[i] - double(out[i]); };
  while (assigned < total) {
    size_t best = 0;
    for (size_t i = 1; i < n; ++i) {
      double d = remainder(i) - remainder(best);
      if (d > 1e-12 || (std::fabs(d) <= 1e-12 && ideal[i] > ideal[best])) best = i;
    }
    ++out[best];
    ++assigned;
  }
  while (assigned > total) {
    size_t best = n;
    for (size_t i = 0; i < n; ++i) {
      if (out[i] <= floor_min) continue;
      if (best == n || remainder(i) < remainder(best) - 1e-12) best = i;
    }
    if (best == n) break;
    --out[best];
    --assigned;
  }
  return out;
}

}  // namespace numaperf
