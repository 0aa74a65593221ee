#include "synthetic.h"

#include <cmath>
#include <random>

namespace numaperf::counters::bench {

namespace {

struct Node {
  std::vector<int> parts;  // empty: a leaf
};

}  // namespace

Trace makeTrace(const SyntheticSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  std::normal_distribution<double> N01(0, 1);
  std::uniform_real_distribution<double> U(0, 1);
  Trace t;
  const int n = spec.events;
  const int nf = spec.fixedEvents;
  // Events 0..nf-1 are fixed (0 = cycles, 1 = instructions). The others form
  // families: a total split into 2-4 parts, a part sometimes split again.
  std::vector<Node> nodes(n);
  t.fixed.assign(n, false);
  for (int i = 0; i < nf; ++i) {
    t.fixed[i] = true;
    t.names.push_back(i == 0 ? "cycles" : i == 1 ? "instructions" : "fixed" + std::to_string(i));
  }
  int next = nf, fam = 0;
  while (next < n) {
    int root = next++;
    t.names.push_back("f" + std::to_string(fam) + ".total");
    std::vector<int> open{root};
    int sub = 0;
    while (!open.empty() && next < n) {
      int parent = open.front();
      open.erase(open.begin());
      int k = 2 + static_cast<int>(rng() % 3);
      if (n - next < k) k = n - next;
      if (k < 2) {
        // a lone leftover becomes a part of this parent's family root
        if (k == 1) {
          nodes[root].parts.push_back(next);
          t.names.push_back("f" + std::to_string(fam) + ".p" + std::to_string(sub++));
          ++next;
        }
        break;
      }
      for (int j = 0; j < k; ++j) {
        nodes[parent].parts.push_back(next);
        t.names.push_back("f" + std::to_string(fam) + ".p" + std::to_string(sub++));
        if (U(rng) < 0.3) open.push_back(next);
        ++next;
      }
    }
    ++fam;
  }
  for (int i = 0; i < n; ++i) {
    if (nodes[i].parts.empty()) continue;
    Invariant inv;
    inv.name = t.names[i] + " = sum of parts";
    inv.terms.push_back({canonicalEventName(t.names[i]), 1});
    for (int p : nodes[i].parts) inv.terms.push_back({canonicalEventName(t.names[p]), -1});
    t.invariants.push_back(inv);
  }
  // A family root with no parts (n ran out) is just a lone event.

  // Schedule from the real builder.
  std::vector<ScheduledEvent> sev;
  for (int i = 0; i < n; ++i) sev.push_back({t.names[i], 0, t.fixed[i], {}});
  LinearSystem sys = restrictTo(t.invariants, t.names);
  t.schedule = buildSchedule(sev, {{"cpu", spec.counters}}, invariantNeighbours(sys, n));

  // Phased workload: each phase has an activity level and a mix (events per
  // instruction); slices add bursts common to all events and own jitter.
  std::vector<double> base(n, 0);
  for (int i = 0; i < n; ++i) base[i] = std::exp(std::log(0.002) + U(rng) * std::log(0.5 / 0.002));
  auto newMix = [&]() {
    std::vector<double> m(n);
    for (int i = 0; i < n; ++i) m[i] = base[i] * std::exp(spec.mixSigma * N01(rng));
    return m;
  };
  double activity = std::exp(spec.phaseSigma * N01(rng)), ipc = 0.5 + 2 * U(rng);
  std::vector<double> mix = newMix();
  const double cyclesPerSlice = 4e6;  // 1 GHz x 4 ms
  int slices = spec.intervals * spec.slicesPerInterval;
  std::vector<std::vector<double>> x(slices, std::vector<double>(n, 0));
  for (int s = 0; s < slices; ++s) {
    if (U(rng) < 1.0 / spec.meanPhaseSlices) {
      activity = std::exp(spec.phaseSigma * N01(rng));
      ipc = 0.5 + 2 * U(rng);
      mix = newMix();
    }
    double burst = std::exp(spec.burstSigma * N01(rng));
    double busy = std::min(1.0, 0.6 * activity * burst);  // share of the slice the thread runs
    double cycles = cyclesPerSlice * busy;
    double instr = cycles * ipc;
    if (nf > 0) x[s][0] = cycles;
    if (nf > 1) x[s][1] = instr;
    for (int i = 2; i < nf; ++i) x[s][i] = cycles * 0.9;
    // Leaves first, then totals bottom-up (parts always have larger indices).
    for (int i = n - 1; i >= nf; --i) {
      if (nodes[i].parts.empty()) {
        x[s][i] = instr * mix[i] * std::exp(spec.jitterSigma * N01(rng));
      } else {
        double sum = 0;
        for (int p : nodes[i].parts) sum += x[s][p];
        x[s][i] = sum;
      }
    }
  }

  // Multiplexing: slice s runs configuration s mod C of the rotation.
  const int C = static_cast<int>(t.schedule.size());
  t.truth.assign(spec.intervals, std::vector<double>(n, 0));
  t.readings.assign(spec.intervals, std::vector<std::vector<Reading>>(n));
  for (int s = 0; s < slices; ++s) {
    int iv = s / spec.slicesPerInterval;
    const auto& cfg = t.schedule[s % C].events;
    std::vector<bool> on(n, false);
    for (int e : cfg) on[e] = true;
    for (int i = 0; i < n; ++i) {
      t.truth[iv][i] += x[s][i];
      Reading r;
      r.enabled = 4e6;
      if (on[i]) {
        r.running = r.enabled;
        r.count = std::max(0.0, std::round(x[s][i] * (1 + spec.readNoise * N01(rng))));
      }
      t.readings[iv][i].push_back(r);
    }
  }
  return t;
}

}  // namespace numaperf::counters::bench
