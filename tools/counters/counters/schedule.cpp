#include "counters/schedule.h"

#include <algorithm>
#include <functional>
#include <set>

#include "counters/error.h"

namespace numaperf::counters {

namespace {

bool allowedOn(const ScheduledEvent& e, int c) {
  return e.allowed.empty() || std::find(e.allowed.begin(), e.allowed.end(), c) != e.allowed.end();
}

}  // namespace

bool assignCounters(const std::vector<ScheduledEvent>& events, const std::vector<PmuSpec>& pmus,
                    const std::vector<int>& chosen, std::vector<int>* counters) {
  std::vector<int> result(chosen.size(), -1);
  // Bipartite matching per PMU (Kuhn's augmenting paths): constrained events
  // find their counter even when added after unconstrained ones.
  for (size_t p = 0; p < pmus.size(); ++p) {
    std::vector<size_t> mine;
    for (size_t j = 0; j < chosen.size(); ++j) {
      const auto& e = events[chosen[j]];
      if (e.pmu == static_cast<int>(p) && !e.fixed) mine.push_back(j);
    }
    if (pmus[p].counters < 0 || mine.empty()) continue;
    int nc = pmus[p].counters;
    if (static_cast<int>(mine.size()) > nc) return false;
    std::vector<int> owner(nc, -1);  // counter -> index into mine
    std::function<bool(size_t, std::vector<bool>&)> augment = [&](size_t m, std::vector<bool>& seen) {
      for (int c = 0; c < nc; ++c) {
        if (seen[c] || !allowedOn(events[chosen[mine[m]]], c)) continue;
        seen[c] = true;
        if (owner[c] < 0 || augment(owner[c], seen)) {
          owner[c] = static_cast<int>(m);
          return true;
        }
      }
      return false;
    };
    for (size_t m = 0; m < mine.size(); ++m) {
      std::vector<bool> seen(nc, false);
      if (!augment(m, seen)) return false;
    }
    for (int c = 0; c < nc; ++c)
      if (owner[c] >= 0) result[mine[owner[c]]] = c;
  }
  if (counters) *counters = std::move(result);
  return true;
}

std::vector<Configuration> buildSchedule(const std::vector<ScheduledEvent>& events, const std::vector<PmuSpec>& pmus,
                                         const std::vector<std::vector<int>>& neighbours) {
  const int n = static_cast<int>(events.size());
  std::vector<int> always, rotating;
  for (int i = 0; i < n; ++i) {
    const auto& e = events[i];
    if (e.pmu < 0 || e.pmu >= static_cast<int>(pmus.size())) throw CountersError("event " + e.name + ": unknown PMU");
    if (e.fixed || pmus[e.pmu].counters < 0) {
      always.push_back(i);
      continue;
    }
    if (!assignCounters(events, pmus, {i}, nullptr))
      throw CountersError("event " + e.name + " cannot be counted: PMU " + pmus[e.pmu].name +
                          " has no counter it may use");
    rotating.push_back(i);
  }
  auto degree = [&](int i) { return static_cast<int>(neighbours[i].size()); };
  auto linked = [&](int a, int b) {
    return std::find(neighbours[a].begin(), neighbours[a].end(), b) != neighbours[a].end();
  };

  // Order: breadth-first through the invariant graph from the best-connected
  // event, so that related events land in the same or adjacent configurations.
  std::vector<int> order;
  {
    std::vector<bool> seen(n, false);
    std::vector<int> pool = rotating;
    std::stable_sort(pool.begin(), pool.end(), [&](int a, int b) { return degree(a) > degree(b); });
    std::set<int> isRot(rotating.begin(), rotating.end());
    for (int root : pool) {
      if (seen[root]) continue;
      std::vector<int> queue{root};
      seen[root] = true;
      for (size_t q = 0; q < queue.size(); ++q) {
        order.push_back(queue[q]);
        std::vector<int> nb = neighbours[queue[q]];
        std::stable_sort(nb.begin(), nb.end(), [&](int a, int b) { return degree(a) > degree(b); });
        for (int m : nb)
          if (!seen[m] && isRot.count(m)) {
            seen[m] = true;
            queue.push_back(m);
          }
      }
    }
  }

  auto fits = [&](const std::vector<int>& cfg) { return assignCounters(events, pmus, cfg, nullptr); };
  std::vector<std::vector<int>> configs;
  std::vector<int> remaining = order;
  // The best-linked event: carried into runs of unlinked events so that
  // their configurations still overlap through an invariant-linked one.
  int hub = -1;
  for (int e : order)
    if (degree(e) > 0 && (hub < 0 || degree(e) > degree(hub))) hub = e;

  // Fill a configuration starting from `seed`; returns how many new events fit.
  auto fill = [&](std::vector<int>& cfg, std::vector<int>& left) {
    size_t added = 0;
    // Preference: linked to something already in, then the BFS order.
    for (int pass = 0; pass < 2; ++pass)
      for (auto it = left.begin(); it != left.end();) {
        int e = *it;
        bool rel = std::any_of(cfg.begin(), cfg.end(), [&](int c) { return linked(c, e); });
        if (pass == 0 && !rel && !cfg.empty()) {
          ++it;
          continue;
        }
        cfg.push_back(e);
        if (fits(cfg)) {
          ++added;
          it = left.erase(it);
        } else {
          cfg.pop_back();
          ++it;
        }
      }
    return added;
  };

  std::vector<int> carries;  // candidates from the previous configuration, best first
  while (!remaining.empty()) {
    std::vector<int> cfg, left;
    bool ok = false;
    auto tryCarry = [&](int carry) {
      cfg = {carry};
      if (degree(carry) == 0 && hub >= 0 && hub != carry) {
        cfg.push_back(hub);
        if (!fits(cfg)) cfg.pop_back();
      }
      left = remaining;
      return fill(cfg, left) > 0;
    };
    for (int carry : carries)
      if (degree(carry) > 0 && (ok = tryCarry(carry))) break;
    if (!ok && !configs.empty()) {
      // No linked event of the previous configuration leaves room here
      // (counter constraints): add another linked event to the previous
      // configuration, if it fits there, and carry that one.
      std::vector<int> linkedAll;
      for (int e : order)
        if (degree(e) > 0) linkedAll.push_back(e);
      std::stable_sort(linkedAll.begin(), linkedAll.end(), [&](int a, int b) { return degree(a) > degree(b); });
      for (int h : linkedAll) {
        std::vector<int> prev = configs.back();
        if (std::find(prev.begin(), prev.end(), h) != prev.end()) continue;
        prev.push_back(h);
        if (!fits(prev) || !tryCarry(h)) continue;
        configs.back() = prev;
        ok = true;
        break;
      }
    }
    if (!ok)
      for (int carry : carries)
        if (degree(carry) == 0 && (ok = tryCarry(carry))) break;
    if (!ok) {
      // No carried event leaves room (constraints): break the chain and
      // start over from a valid configuration, as BayesPerf does.
      cfg.clear();
      if (hub >= 0 && !configs.empty()) cfg.push_back(hub);
      left = remaining;
      if (fill(cfg, left) == 0) {
        cfg.clear();
        left = remaining;
        if (fill(cfg, left) == 0) throw CountersError("internal: no event fits an empty configuration");
      }
    }
    remaining = left;
    configs.push_back(cfg);
    // Carry the event with most invariant links to what is left, then the
    // best-linked ones, so that the next configuration shares it.
    carries = cfg;
    std::stable_sort(carries.begin(), carries.end(), [&](int a, int b) {
      auto score = [&](int e) {
        int toLeft = 0;
        for (int r : remaining) toLeft += linked(e, r);
        return (degree(e) > 0 ? 1000000 : 0) + toLeft * 1000 + degree(e);
      };
      return score(a) > score(b);
    });
  }
  int carry = carries.empty() ? -1 : carries.front();

  // Close the rotation: the last configuration must share an event with the first.
  if (configs.size() > 1) {
    auto& last = configs.back();
    const auto& first = configs.front();
    auto shares = [&](const std::vector<int>& a, const std::vector<int>& b) {
      for (int x : a)
        if (std::find(b.begin(), b.end(), x) != b.end()) return true;
      return false;
    };
    if (!shares(last, first)) {
      std::vector<int> cands = first;
      std::stable_sort(cands.begin(), cands.end(), [&](int a, int b) { return degree(a) > degree(b); });
      bool done = false;
      for (int c : cands) {
        last.push_back(c);
        if (fits(last)) {
          done = true;
          break;
        }
        last.pop_back();
      }
      if (!done) {
        // A bridge configuration: the last one's carried event and the first one's best-linked.
        std::vector<int> bridge{carry >= 0 ? carry : last.front()};
        for (int c : cands) {
          bridge.push_back(c);
          if (fits(bridge)) break;
          bridge.pop_back();
        }
        configs.push_back(bridge);
      }
    }
  }

  std::vector<Configuration> out;
  if (configs.empty()) configs.push_back({});
  for (auto& c : configs) {
    c.insert(c.end(), always.begin(), always.end());
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    Configuration cfg;
    cfg.events = c;
    assignCounters(events, pmus, c, &cfg.counter);
    out.push_back(std::move(cfg));
  }
  return out;
}

}  // namespace numaperf::counters
