// Placement, loaders, bandwidth and chase kernels on this machine, whatever
// its shape (no assumption on node or PU counts).
#include <dirent.h>
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "probe/bandwidth.h"
#include "probe/chase.h"
#include "probe/error.h"
#include "probe/loaders.h"
#include "probe/placement.h"
#include "probe/threads.h"
#include "probe/topology.h"

using namespace numaperf::probe;

namespace {
const uint64_t MiB = 1ull << 20;

size_t threadCount() {
  size_t n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') ++n;
    closedir(d);
  }
  return n;
}

struct Machine {
  HwlocTopology topo = HwlocTopology::thisSystem();
  Topology model = topo.model();
  unsigned firstPu() const { return model.pus.front().os; }
  unsigned lastPu() const { return model.pus.back().os; }
  unsigned memNode() const { return model.memoryNodes().front(); }
};
}  // namespace

TEST(Chase, VisitsEveryLineOnce) {
  std::vector<char> mem(64 * 1000);
  ChaseBuffer b(mem.data(), mem.size(), 64, 42);
  ASSERT_EQ(b.lines(), 1000u);
  std::set<void*> seen;
  void* p = b.start();
  for (size_t i = 0; i < b.lines(); ++i) {
    EXPECT_TRUE(seen.insert(p).second) << "line visited twice at step " << i;
    p = chase(p, 1);
  }
  EXPECT_EQ(p, b.start());  // one cycle through all lines
  // Not sequential: most links jump more than one line.
  size_t far = 0;
  p = b.start();
  for (size_t i = 0; i < b.lines(); ++i) {
    void* q = chase(p, 1);
    if (std::labs(static_cast<char*>(q) - static_cast<char*>(p)) > 64) ++far;
    p = q;
  }
  EXPECT_GT(far, b.lines() * 9 / 10);
}

TEST(Chase, MeasuresSomething) {
  std::vector<char> mem(16 * 1024);
  ChaseBuffer b(mem.data(), mem.size());
  LatencyStats s = measureChase(b, 100000, 3, b.lines());
  EXPECT_EQ(s.samples.size(), 3u);
  EXPECT_GT(s.medianNs, 0.0);
  EXPECT_LE(s.minNs, s.medianNs);
  EXPECT_LE(s.medianNs, s.maxNs);
}

TEST(Placement, BufferIsOnItsNode) {
  Machine m;
  for (unsigned node : m.model.memoryNodes()) {
    NodeBuffer b(4 * MiB, node);
    b.touch();
    PlacementCheck c = b.verify();
    if (!c.known) GTEST_SKIP() << "move_pages unavailable";
    EXPECT_EQ(c.onNode, c.sampled) << "node " << node;
  }
}

TEST(Placement, BadNodeAndPuFail) {
  Machine m;
  EXPECT_THROW(NodeBuffer(1 * MiB, 1000), ProbeError);
  EXPECT_THROW(runOnPu(m.topo.get(), 100000, [] {}), ProbeError);
  unsigned seen = 9999;
  runOnPu(m.topo.get(), m.lastPu(), [&] { seen = static_cast<unsigned>(sched_getcpu()); });
  EXPECT_EQ(seen, m.lastPu());
}

TEST(Loaders, RunAndStopLeavingNoThread) {
  Machine m;
  size_t before = threadCount();
  NoisePlan plan;
  plan.mode = NoiseMode::Overload;
  for (const auto& p : m.model.pus) plan.loaders.push_back({p.os, m.memNode(), 2 * MiB});
  {
    NoiseLoaders l(m.topo.get(), plan);
    l.start();
    EXPECT_EQ(l.running(), plan.loaders.size());
    EXPECT_EQ(threadCount(), before + plan.loaders.size());
    uint64_t a = l.linesRead();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_GT(l.linesRead(), a);
  }
  EXPECT_EQ(threadCount(), before);
}

TEST(Loaders, FailureStopsTheOthers) {
  Machine m;
  size_t before = threadCount();
  NoisePlan plan;
  plan.mode = NoiseMode::Spread;
  plan.loaders.push_back({m.firstPu(), m.memNode(), 2 * MiB});
  plan.loaders.push_back({100000, m.memNode(), 2 * MiB});  // no such PU
  NoiseLoaders l(m.topo.get(), plan);
  EXPECT_THROW(l.start(), ProbeError);
  EXPECT_EQ(l.running(), 0u);
  EXPECT_EQ(threadCount(), before);
}

TEST(Bandwidth, KernelsMoveBytes) {
  Machine m;
  for (BwKind k : {BwKind::Read, BwKind::Write, BwKind::Mixed}) {
    BandwidthResult r = measureBandwidth(m.topo.get(), {m.firstPu()}, m.memNode(), k, 4 * MiB, 0.05);
    EXPECT_GT(r.gbPerSecond, 0.01) << bwKindName(k);
    EXPECT_GT(r.seconds, 0.04);
    EXPECT_EQ(r.threads, 1u);
  }
}

TEST(Bandwidth, KernelsComputeWhatTheySay) {
  std::vector<uint64_t> a(1024), b(1024);
  writeKernel(a.data(), a.size() * 8, 5);
  EXPECT_EQ(a[3], 5u ^ 3u);
  copyKernel(b.data(), a.data(), a.size() * 8);
  EXPECT_EQ(b[3], a[3] + 1);
  uint64_t sum = 0;
  for (uint64_t v : a) sum += v;
  EXPECT_EQ(readKernel(a.data(), a.size() * 8), sum);
}
