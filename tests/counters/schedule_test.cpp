#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "counters/error.h"
#include "counters/schedule.h"

using namespace numaperf::counters;

namespace {

struct Case {
  std::vector<ScheduledEvent> events;
  std::vector<PmuSpec> pmus;
  std::vector<std::vector<int>> nb;
};

void link(Case& c, int a, int b) {
  c.nb[a].push_back(b);
  c.nb[b].push_back(a);
}

// families of `size` events on one PMU: event 0 of each is linked to the rest
Case families(int count, int size, int counters) {
  Case c;
  c.pmus = {{"cpu", counters}};
  for (int f = 0; f < count; ++f)
    for (int i = 0; i < size; ++i) c.events.push_back({"f" + std::to_string(f) + "e" + std::to_string(i), 0, false, {}});
  c.nb.resize(c.events.size());
  for (int f = 0; f < count; ++f)
    for (int i = 1; i < size; ++i) link(c, f * size, f * size + i);
  return c;
}

// The properties every schedule must have (see schedule.h).
void checkProperties(const Case& c, const std::vector<Configuration>& s) {
  std::set<int> seen;
  for (const auto& cfg : s) {
    seen.insert(cfg.events.begin(), cfg.events.end());
    std::vector<int> use;
    ASSERT_TRUE(assignCounters(c.events, c.pmus, cfg.events, &use));
    // The reported counters are distinct per PMU and allowed.
    for (size_t a = 0; a < cfg.events.size(); ++a) {
      const auto& e = c.events[cfg.events[a]];
      if (cfg.counter[a] < 0) continue;
      if (!e.allowed.empty())
        EXPECT_NE(std::find(e.allowed.begin(), e.allowed.end(), cfg.counter[a]), e.allowed.end()) << e.name;
      for (size_t b = a + 1; b < cfg.events.size(); ++b)
        if (c.events[cfg.events[b]].pmu == e.pmu) EXPECT_NE(cfg.counter[a], cfg.counter[b]);
    }
  }
  EXPECT_EQ(seen.size(), c.events.size());
  if (s.size() < 2) return;
  for (size_t k = 0; k < s.size(); ++k) {
    const auto& a = s[k].events;
    const auto& b = s[(k + 1) % s.size()].events;
    bool shared = false;
    for (int e : a)
      if (std::find(b.begin(), b.end(), e) != b.end() && !c.nb[e].empty()) shared = true;
    EXPECT_TRUE(shared) << "configurations " << k << " and " << (k + 1) % s.size() << " share no linked event";
  }
}

}  // namespace

TEST(Schedule, FitsInOneConfigurationWhenPossible) {
  Case c = families(1, 4, 4);
  auto s = buildSchedule(c.events, c.pmus, c.nb);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].events.size(), 4u);
}

TEST(Schedule, RotationOverlapsThroughLinkedEvents) {
  Case c = families(3, 5, 4);  // 15 events, 4 counters
  auto s = buildSchedule(c.events, c.pmus, c.nb);
  EXPECT_GE(s.size(), 4u);
  checkProperties(c, s);
}

TEST(Schedule, FixedAndSoftwareEventsInEveryConfiguration) {
  Case c = families(2, 4, 2);
  c.pmus.push_back({"software", -1});
  c.events.push_back({"cycles", 0, true, {}});
  c.events.push_back({"task-clock", 1, false, {}});
  c.nb.resize(c.events.size());
  auto s = buildSchedule(c.events, c.pmus, c.nb);
  ASSERT_GE(s.size(), 2u);
  for (const auto& cfg : s) {
    EXPECT_NE(std::find(cfg.events.begin(), cfg.events.end(), 8), cfg.events.end());
    EXPECT_NE(std::find(cfg.events.begin(), cfg.events.end(), 9), cfg.events.end());
  }
  checkProperties(c, s);
}

TEST(Schedule, CounterConstraintsHonoured) {
  Case c = families(2, 4, 4);
  c.events[1].allowed = {2};  // like L1D_PEND_MISS.PENDING: counter 2 only
  c.events[2].allowed = {2};
  c.events[5].allowed = {0, 1};
  auto s = buildSchedule(c.events, c.pmus, c.nb);
  for (const auto& cfg : s) {
    bool one = std::count(cfg.events.begin(), cfg.events.end(), 1);
    bool two = std::count(cfg.events.begin(), cfg.events.end(), 2);
    EXPECT_FALSE(one && two) << "two events restricted to counter 2 in one configuration";
  }
  checkProperties(c, s);
}

TEST(Schedule, ImpossibleEventIsNamed) {
  Case c = families(1, 3, 4);
  c.events[2].allowed = {7};
  try {
    buildSchedule(c.events, c.pmus, c.nb);
    FAIL() << "no error";
  } catch (const CountersError& e) {
    EXPECT_NE(std::string(e.what()).find("f0e2 cannot be counted"), std::string::npos) << e.what();
  }
  c = families(1, 3, 0);
  EXPECT_THROW(buildSchedule(c.events, c.pmus, c.nb), CountersError);
}

// Random event sets of 10 to 35 events, random invariant links and a few
// constrained events: the properties hold for every seed.
TEST(Schedule, PropertiesOnRandomCases) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    int n = 10 + static_cast<int>(rng() % 26);
    int counters = 2 + static_cast<int>(rng() % 5);
    Case c;
    c.pmus = {{"cpu", counters}};
    for (int i = 0; i < n; ++i) {
      ScheduledEvent e{"e" + std::to_string(i), 0, false, {}};
      if (rng() % 8 == 0) e.allowed = {static_cast<int>(rng() % counters)};
      c.events.push_back(e);
    }
    c.nb.resize(n);
    for (int i = 1; i < n; ++i)
      if (rng() % 4 != 0) link(c, i, static_cast<int>(rng() % i));
    auto s = buildSchedule(c.events, c.pmus, c.nb);
    SCOPED_TRACE("seed " + std::to_string(seed));
    checkProperties(c, s);
  }
}
