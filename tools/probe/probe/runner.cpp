#include "probe/runner.h"

#include <algorithm>
#include <memory>

#include "probe/bandwidth.h"
#include "probe/error.h"
#include "probe/loaders.h"
#include "probe/threads.h"

namespace numaperf::probe {

namespace {
const uint64_t MiB = 1ull << 20;
const size_t kLocalWindow = 2 << 20;  // --pattern local: random within 2 MiB

size_t lineBytesFor(const Topology& t, unsigned pu) {
  const PuInfo* p = t.pu(pu);
  return p && !p->caches.empty() ? std::max<size_t>(p->caches.front().lineBytes, 16) : 64;
}

uint64_t perRep(uint64_t workloadBytes, size_t line, unsigned reps) {
  return std::max<uint64_t>(workloadBytes / line / std::max(1u, reps), 1);
}
}  // namespace

LatencyResult runLatency(hwloc_topology_t topo, const Topology& t, const LatencyConfig& c, const ProgressFn& progress) {
  double t0 = nowSeconds();
  if (progress) progress("building the chase buffer");
  LatencyResult r;
  r.config = c;
  size_t line = lineBytesFor(t, c.pu);
  NodeBuffer mem(std::max<uint64_t>(c.bufferBytes, 2 * line), c.node, c.pages);
  ChaseBuffer chaseBuf(mem.data(), mem.size(), line, 0x9e3779b97f4a7c15ull, c.localPattern ? kLocalWindow : 0,
                       c.localPattern ? 2 : 1);
  r.placement = mem.verify();
  NoiseLoaders loaders(topo, c.noise);
  if (progress && !c.noise.loaders.empty()) progress("starting noisy loaders");
  loaders.start();
  r.loaders = loaders.running();
  if (progress) progress("measuring");
  runOnPu(topo, c.pu, [&] {
    r.stats = measureChase(chaseBuf, perRep(c.workloadBytes, line, c.repeat), c.repeat, defaultWarmup(chaseBuf));
  });
  loaders.stop();
  r.seconds = nowSeconds() - t0;
  return r;
}

SweepResult runSweep(hwloc_topology_t topo, const Topology& t, const LatencyConfig& c, const ProgressFn& progress) {
  double t0 = nowSeconds();
  SweepResult r;
  r.config = c;
  const PuInfo* pu = t.pu(c.pu);
  if (pu) r.caches = pu->caches;
  size_t line = lineBytesFor(t, c.pu);
  std::vector<uint64_t> sizes = sweepSizes(r.caches, std::max<uint64_t>(c.bufferBytes, 2 * line));
  NodeBuffer mem(sizes.back(), c.node, c.pages);
  mem.touch();
  r.placement = mem.verify();
  NoiseLoaders loaders(topo, c.noise);
  loaders.start();
  const uint64_t reps = std::min(c.repeat, 5u);
  uint64_t innerBytes = r.caches.size() >= 2 ? r.caches[1].sizeBytes : 1 * MiB;
  runOnPu(topo, c.pu, [&] {
    for (uint64_t s : sizes) {
      if (progress) progress("buffer " + std::to_string(s >> 10) + " KiB");
      ChaseBuffer chaseBuf(mem.data(), s, line, 0x9e3779b97f4a7c15ull, c.localPattern ? kLocalWindow : 0,
                           c.localPattern ? 2 : 1);
      // Per repetition: 512 Ki accesses in the inner caches (>= 0.5 ms even
      // in L1), 128 Ki beyond them (tens of ms at DRAM latencies). Warm-up:
      // one whole cycle up to 32 MiB (loads the caches), 512 Ki accesses
      // beyond (settles the TLB; the buffer does not fit anyway).
      uint64_t n = s <= innerBytes ? 512 * 1024 : 128 * 1024;
      LatencyStats st = measureChase(chaseBuf, n, static_cast<unsigned>(reps), std::min<uint64_t>(chaseBuf.lines(), 512u << 10));
      r.points.push_back({s, st.medianNs});
    }
  });
  loaders.stop();
  r.plateaus = findPlateaus(r.caches, r.points);
  r.seconds = nowSeconds() - t0;
  return r;
}

size_t matrixSteps(const Topology& t, const MatrixOptions& o) {
  size_t perPair = 1 + (o.bandwidth ? 3 : 0) + (o.loaded ? 2 : 0);
  return t.memoryNodes().size() * (1 + t.cpuNodes().size() * perPair);
}

Calibration runMatrix(hwloc_topology_t topo, const Topology& t, const MatrixOptions& o, const ProgressFn& progress) {
  Calibration cal;
  cal.date = isoDateUtc();
  cal.host = hostName();
  cal.tool = "numaperf 0.1.0";
  cal.topology = summarize(t);
  std::vector<unsigned> rows = t.cpuNodes(), cols = t.memoryNodes();
  if (rows.empty()) throw ProbeError("no NUMA node with allowed PUs; valid PUs: " + t.puList());
  if (cols.empty()) throw ProbeError("no allowed NUMA node has memory");
  for (NodeMatrix* m : {&cal.idleLatencyNs, &cal.loadedSpreadNs, &cal.loadedOverloadNs, &cal.readGBps, &cal.writeGBps,
                        &cal.mixedGBps})
    m->reset(rows, cols);
  if (t.nodes.size() == 1) cal.notes.push_back("one NUMA node: remote entries are not applicable");
  for (const auto& n : t.nodes)
    if (n.pus.empty()) cal.notes.push_back("node " + std::to_string(n.os) + " has no allowed CPUs: column only");
  auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  for (unsigned m : cols) {
    say("buffer on node " + std::to_string(m));
    uint64_t bytes = o.bufferBytes ? o.bufferBytes : defaultDramBufferBytes(t, m);
    checkFits(t, bytes, m, NoisePlan{});
    unsigned firstPu = t.node(rows.front())->pus.front();
    size_t line = lineBytesFor(t, firstPu);
    NodeBuffer mem(bytes, m);
    ChaseBuffer chaseBuf(mem.data(), mem.size(), line);
    uint64_t n = perRep(o.workloadBytes, line, o.repeat);
    uint64_t warm = std::min<uint64_t>(chaseBuf.lines(), 1u << 20);
    for (unsigned c : rows) {
      const NodeInfo* cn = t.node(c);
      unsigned pu = cn->pus.front();
      std::string pair = "cpu node " + std::to_string(c) + " -> memory node " + std::to_string(m);
      say("idle latency, " + pair);
      runOnPu(topo, pu, [&] { cal.idleLatencyNs.set(c, m, measureChase(chaseBuf, n, o.repeat, warm).medianNs); });
      if (o.bandwidth) {
        for (BwKind k : {BwKind::Read, BwKind::Write, BwKind::Mixed}) {
          say(std::string(bwKindName(k)) + " bandwidth, " + pair);
          uint64_t per = loaderBufferBytes(t, pu, cn->pus);
          NoisePlan asLoad;  // check the bandwidth buffers fit like loader buffers
          for (unsigned p : cn->pus) asLoad.loaders.push_back({p, m, per});
          try {
            checkFits(t, bytes, m, asLoad);
          } catch (const ProbeError&) {
            per = std::max<uint64_t>(usableBytes(*t.node(m)) / 4 / cn->pus.size(), 2 * MiB);
          }
          BandwidthResult b = measureBandwidth(topo, cn->pus, m, k, per, o.bandwidthSeconds);
          (k == BwKind::Read ? cal.readGBps : k == BwKind::Write ? cal.writeGBps : cal.mixedGBps).set(c, m, b.gbPerSecond);
        }
      }
      if (o.loaded) {
        for (NoiseMode mode : {NoiseMode::Spread, NoiseMode::Overload}) {
          say(std::string("loaded latency (") + noiseModeName(mode) + "), " + pair);
          NoisePlan plan = planNoise(t, mode, pu, m);
          if (plan.loaders.empty()) continue;
          try {
            checkFits(t, bytes, m, plan);
          } catch (const ProbeError& e) {
            cal.notes.push_back(std::string("loaded latency (") + noiseModeName(mode) + ") " + pair + " skipped: " + e.what());
            continue;
          }
          NoiseLoaders loaders(topo, plan);
          loaders.start();
          runOnPu(topo, pu, [&] {
            double v = measureChase(chaseBuf, n, o.repeat, warm).medianNs;
            (mode == NoiseMode::Spread ? cal.loadedSpreadNs : cal.loadedOverloadNs).set(c, m, v);
          });
        }
      }
    }
  }
  if (t.pus.size() < 2) cal.notes.push_back("one allowed PU: no loaded latencies (no PU for noisy loaders)");
  return cal;
}

}  // namespace numaperf::probe
