// Validation of latency requests: defaults, messages naming the valid range.
#include <gtest/gtest.h>

#include "probe/error.h"
#include "probe/request.h"

using namespace numaperf::probe;

namespace {
const uint64_t MiB = 1ull << 20;

Topology xmlModel(const std::string& name) {
  return HwlocTopology::xml(std::string(PROBE_TOPOLOGY_DIR) + "/" + name).model();
}

std::string errorOf(const Topology& t, const LatencyArgs& a) {
  try {
    resolveLatency(t, a);
  } catch (const ProbeError& e) {
    return e.what();
  }
  return "";
}

LatencyArgs args() { return LatencyArgs{}; }
}  // namespace

TEST(Request, Defaults) {
  Topology t = xmlModel("four_nodes_cpuless_asym.xml");
  LatencyConfig c = resolveLatency(t, args());
  EXPECT_EQ(c.pu, 0u);
  EXPECT_EQ(c.node, 0u);
  EXPECT_EQ(c.noiseMode, NoiseMode::None);
  EXPECT_TRUE(c.noise.loaders.empty());
  EXPECT_GE(c.bufferBytes, 256 * MiB);
  EXPECT_GE(c.bufferBytes, 4 * t.largestCacheBytes());
  EXPECT_EQ(c.repeat, 7u);
  EXPECT_GT(c.workloadBytes, 0u);
}

TEST(Request, DefaultNodeIsThePusNode) {
  Topology t = xmlModel("eight_nodes_uneven.xml");
  LatencyArgs a;
  a.pu = 21;
  EXPECT_EQ(resolveLatency(t, a).node, 5u);
}

TEST(Request, DefaultBufferExceedsLargeCaches) {
  Topology t = HwlocTopology::synthetic("pack:2 [numa(memory=64GiB)] l3:1(size=105MiB) core:2 pu:1").model();
  EXPECT_EQ(defaultDramBufferBytes(t, 0), 512 * MiB);
  Topology tiny = HwlocTopology::synthetic("pack:2 [numa(memory=256MiB)] core:2 pu:1").model();
  EXPECT_LE(defaultDramBufferBytes(tiny, 0), usableBytes(*tiny.node(0)));
}

TEST(Request, NonexistentPuNamesTheRange) {
  Topology t = xmlModel("four_nodes_cpuless_asym.xml");
  LatencyArgs a;
  a.pu = 10;  // a hole in 0-9,12-17
  EXPECT_EQ(errorOf(t, a), "PU 10 does not exist; valid PUs: 0-9,12-17");
  a.pu = -1;
  EXPECT_EQ(errorOf(t, a), "PU -1 does not exist; valid PUs: 0-9,12-17");
}

TEST(Request, PuOutsideCpuset) {
  Topology t = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] core:4 pu:1").model();
  t.restrict({0, 1, 2, 3}, {0, 1});
  LatencyArgs a;
  a.pu = 5;
  EXPECT_EQ(errorOf(t, a), "PU 5 is outside this process's allowed CPUs; valid PUs: 0-3");
}

TEST(Request, NonexistentNodeNamesTheRange) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  LatencyArgs a;
  a.node = 2;
  EXPECT_EQ(errorOf(t, a), "node 2 does not exist; valid nodes: 0-1");
}

TEST(Request, CpulessNodeIsAValidBufferNode) {
  Topology t = xmlModel("four_nodes_cpuless_asym.xml");
  LatencyArgs a;
  a.node = 3;
  a.bufferKiB = 1024;
  EXPECT_EQ(resolveLatency(t, a).node, 3u);
}

TEST(Request, NoisyNodeWithoutMemory) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  t.nodes[1].memoryBytes = 0;  // memoryless node
  t.nodes[1].freeBytes = 0;
  LatencyArgs a;
  a.noise = "overload";
  a.noisyNode = 1;
  a.bufferKiB = 1024;
  EXPECT_EQ(errorOf(t, a), "noisy node 1 has no memory; nodes with memory: 0");
  a.noisyNode = 9;
  EXPECT_EQ(errorOf(t, a), "noisy node 9 does not exist; valid nodes: 0");
  LatencyArgs b;
  b.node = 1;
  EXPECT_EQ(errorOf(t, b), "node 1 has no memory; nodes with memory: 0");
}

TEST(Request, NoisyNodeOnlyWithOverload) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  LatencyArgs a;
  a.noise = "spread";
  a.noisyNode = 1;
  EXPECT_EQ(errorOf(t, a), "--noisy-node is only used with --noise overload");
}

TEST(Request, OverloadDefaultsToTheBufferNode) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  LatencyArgs a;
  a.noise = "overload";
  a.node = 1;
  a.pu = 0;
  LatencyConfig c = resolveLatency(t, a);
  EXPECT_EQ(c.noisyNode, 1u);
  EXPECT_EQ(c.noise.loaders.size(), 6u);
  for (const auto& l : c.noise.loaders) EXPECT_EQ(l.node, 1u);
}

TEST(Request, BadNoiseAndPages) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  LatencyArgs a;
  a.noise = "loud";
  EXPECT_EQ(errorOf(t, a), "--noise 'loud' is not a noise mode; valid: none, spread, overload");
  LatencyArgs b;
  b.pages = "giant";
  EXPECT_EQ(errorOf(t, b), "--pages 'giant' is not a page policy; valid: huge, small, default");
}

TEST(Request, BufferLargerThanFreeMemory) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  t.nodes[0].freeBytes = 1024 * MiB;
  LatencyArgs a;
  a.bufferKiB = 2 * 1024 * 1024;  // 2 GiB
  std::string e = errorOf(t, a);
  EXPECT_NE(e.find("buffer of 2048 MiB does not fit in node 0's free memory (1024 MiB free"), std::string::npos) << e;
}

TEST(Request, LoaderBuffersCountAgainstFreeMemory) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  t.nodes[1].freeBytes = 64 * MiB;  // 4 loaders x 32 MiB from node 0 read node 1
  LatencyArgs a;
  a.noise = "spread";
  a.pu = 4;
  a.bufferKiB = 1024;
  std::string e = errorOf(t, a);
  EXPECT_NE(e.find("noisy loaders"), std::string::npos) << e;
  EXPECT_NE(e.find("node 1"), std::string::npos) << e;
}

TEST(Request, SizesAndRepeat) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  LatencyArgs a;
  a.bufferKiB = 0;
  EXPECT_EQ(errorOf(t, a), "--buffer must be at least 1 KiB (got 0)");
  LatencyArgs b;
  b.workloadKiB = -3;
  EXPECT_EQ(errorOf(t, b), "--workload must be at least 1 KiB (got -3)");
  LatencyArgs c;
  c.repeat = 0;
  EXPECT_EQ(errorOf(t, c), "--repeat must be between 1 and 1000 (got 0)");
}

TEST(Request, NoteWhenNoPuIsLeftForLoaders) {
  Topology t = HwlocTopology::synthetic("pack:1 [numa(memory=4GiB)] core:1 pu:1").model();
  LatencyArgs a;
  a.noise = "spread";
  a.bufferKiB = 1024;
  LatencyConfig c = resolveLatency(t, a);
  EXPECT_TRUE(c.noise.loaders.empty());
  ASSERT_FALSE(c.notes.empty());
}
