// Topology model and noisy-loader planning on synthetic and XML topologies
// (2, 4 and 8 nodes, uneven cores, a CPU-less node, asymmetric distances,
// restricted cpusets).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "probe/noise_plan.h"
#include "probe/topology.h"

using namespace numaperf::probe;

namespace {
const uint64_t MiB = 1ull << 20;

Topology xmlModel(const std::string& name) {
  return HwlocTopology::xml(std::string(PROBE_TOPOLOGY_DIR) + "/" + name).model();
}

std::vector<unsigned> loaderPus(const NoisePlan& p) {
  std::vector<unsigned> v;
  for (const auto& l : p.loaders) v.push_back(l.pu);
  return v;
}

std::vector<unsigned> allPusExcept(const Topology& t, unsigned pu) {
  std::vector<unsigned> v;
  for (const auto& p : t.pus)
    if (p.os != pu) v.push_back(p.os);
  return v;
}
}  // namespace

TEST(Topology, FormatList) {
  EXPECT_EQ(formatList({}), "none");
  EXPECT_EQ(formatList({3}), "3");
  EXPECT_EQ(formatList({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(formatList({5, 4, 4, 6}), "4-6");
}

TEST(Topology, SyntheticTwoNodes) {
  Topology t = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] core:4 pu:1").model();
  EXPECT_FALSE(t.thisSystem);
  ASSERT_EQ(t.nodes.size(), 2u);
  ASSERT_EQ(t.pus.size(), 8u);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.pu(5)->node, 1u);
  EXPECT_EQ(t.node(0)->pus, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(t.cpuNodes(), (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(t.memoryNodes(), (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(t.puList(), "0-7");
  EXPECT_EQ(t.pu(8), nullptr);
  EXPECT_EQ(t.node(2), nullptr);
}

TEST(Topology, SyntheticCaches) {
  Topology t = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] l3:1(size=64MB) core:4 l2:1(size=2MB) l1d:1(size=48KB) pu:2").model();
  const PuInfo* p = t.pu(9);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->caches.size(), 3u);
  EXPECT_EQ(p->caches[0].level, 1);
  EXPECT_EQ(p->caches[1].level, 2);
  EXPECT_EQ(p->caches[2].level, 3);
  EXPECT_LT(p->caches[0].sizeBytes, p->caches[1].sizeBytes);
  EXPECT_LT(p->caches[1].sizeBytes, p->caches[2].sizeBytes);
  EXPECT_EQ(p->caches[2].sharingPus, 8u);  // one L3 per package of 4 cores x 2 PUs
  EXPECT_EQ(p->caches[0].sharingPus, 2u);
  // PUs of different packages have different last-level caches.
  EXPECT_NE(t.pu(0)->llcId, t.pu(9)->llcId);
  EXPECT_EQ(t.pu(8)->llcId, t.pu(9)->llcId);
}

TEST(Topology, XmlTwoNodesUneven) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  ASSERT_EQ(t.nodes.size(), 2u);
  EXPECT_EQ(t.node(0)->pus.size(), 4u);
  EXPECT_EQ(t.node(1)->pus.size(), 3u);
  EXPECT_EQ(t.puList(), "0-6");
  EXPECT_GT(t.node(1)->memoryBytes, 0u);
  EXPECT_EQ(t.node(1)->freeBytes, t.node(1)->memoryBytes);  // not this system
}

TEST(Topology, XmlFourNodesCpulessAsymmetric) {
  Topology t = xmlModel("four_nodes_cpuless_asym.xml");
  ASSERT_EQ(t.nodes.size(), 4u);
  EXPECT_EQ(t.cpuNodes(), (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(t.memoryNodes(), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_TRUE(t.node(3)->pus.empty());
  EXPECT_EQ(t.node(1)->pus, (std::vector<unsigned>{6, 7, 8, 9}));
  EXPECT_EQ(t.puList(), "0-9,12-17");
  ASSERT_EQ(t.distances.size(), 4u);
  EXPECT_EQ(t.distance(0, 0), 10u);
  EXPECT_EQ(t.distance(0, 3), 40u);
  EXPECT_EQ(t.distance(3, 0), 41u);  // asymmetric
  EXPECT_EQ(t.distance(2, 0), 32u);
}

TEST(Topology, XmlEightNodesUneven) {
  Topology t = xmlModel("eight_nodes_uneven.xml");
  ASSERT_EQ(t.nodes.size(), 8u);
  std::map<unsigned, size_t> perNode;
  for (const auto& n : t.nodes) perNode[n.os] = n.pus.size();
  EXPECT_EQ(perNode[0], 4u);
  EXPECT_EQ(perNode[5], 2u);
  EXPECT_EQ(perNode[7], 3u);
  EXPECT_EQ(t.pus.size(), 29u);
  EXPECT_EQ(t.packages, 2u);
}

TEST(Topology, RestrictModelsACpuset) {
  Topology t = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] core:4 pu:1").model();
  t.restrict({1, 2, 5}, {1});
  EXPECT_EQ(t.puList(), "1-2,5");
  EXPECT_EQ(t.nodeList(), "1");
  EXPECT_EQ(t.disallowedPus, (std::vector<unsigned>{0, 3, 4, 6, 7}));
  EXPECT_EQ(t.disallowedNodes, (std::vector<unsigned>{0}));
  EXPECT_EQ(t.node(1)->pus, (std::vector<unsigned>{5}));
  EXPECT_EQ(t.cpuNodes(), (std::vector<unsigned>{1}));
}

TEST(Topology, ThisSystemIsConsistent) {
  Topology t = HwlocTopology::thisSystem().model();
  ASSERT_FALSE(t.pus.empty());
  ASSERT_FALSE(t.nodes.empty());
  // Every allowed PU belongs to exactly one node list, no assumption on counts.
  size_t listed = 0;
  for (const auto& n : t.nodes) listed += n.pus.size();
  EXPECT_LE(listed, t.pus.size());
  for (const auto& n : t.nodes) EXPECT_LE(n.freeBytes, n.memoryBytes + (64ull << 20));
}

// ---- noisy loader planning ----

TEST(NoisePlan, NoneHasNoLoaders) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  EXPECT_TRUE(planNoise(t, NoiseMode::None, 0, 0).loaders.empty());
}

TEST(NoisePlan, SpreadTwoNodes) {
  Topology t = xmlModel("two_nodes_uneven.xml");
  NoisePlan p = planNoise(t, NoiseMode::Spread, 2, 0);
  EXPECT_EQ(loaderPus(p), allPusExcept(t, 2));
  for (const auto& l : p.loaders) EXPECT_EQ(l.node, t.pu(l.pu)->node == 0 ? 1u : 0u) << "PU " << l.pu;
}

TEST(NoisePlan, SpreadFourNodesWithCpulessNode) {
  Topology t = xmlModel("four_nodes_cpuless_asym.xml");
  NoisePlan p = planNoise(t, NoiseMode::Spread, 6, 0);
  EXPECT_EQ(loaderPus(p), allPusExcept(t, 6));
  EXPECT_EQ(p.loaders.size(), 15u);
  for (const auto& l : p.loaders) {
    unsigned n = t.pu(l.pu)->node;
    EXPECT_EQ(l.node, (n + 1) % 4) << "PU " << l.pu;  // node 2's loaders read the CPU-less node 3
  }
  // Nobody reads node 0 (only node 3 would, and it has no CPU).
  EXPECT_EQ(p.bytesOnNode(0), 0u);
  EXPECT_GT(p.bytesOnNode(3), 0u);
}

TEST(NoisePlan, SpreadEightNodesUneven) {
  Topology t = xmlModel("eight_nodes_uneven.xml");
  NoisePlan p = planNoise(t, NoiseMode::Spread, 20, 0);
  EXPECT_EQ(p.loaders.size(), 28u);
  std::map<unsigned, unsigned> readers;
  for (const auto& l : p.loaders) {
    EXPECT_NE(l.pu, 20u);
    EXPECT_EQ(l.node, (t.pu(l.pu)->node + 1) % 8);
    ++readers[l.node];
  }
  EXPECT_EQ(readers[1], 4u);  // from node 0
  EXPECT_EQ(readers[6], 1u);  // from node 5: PU 21 only (20 is the test PU)
  EXPECT_EQ(readers[0], 3u);  // from node 7: 3 PUs
}

TEST(NoisePlan, OverloadAllOnNoisyNode) {
  for (const char* f : {"two_nodes_uneven.xml", "four_nodes_cpuless_asym.xml", "eight_nodes_uneven.xml"}) {
    Topology t = xmlModel(f);
    unsigned noisy = t.memoryNodes().back();
    unsigned testPu = t.pus.back().os;
    NoisePlan p = planNoise(t, NoiseMode::Overload, testPu, noisy);
    EXPECT_EQ(loaderPus(p), allPusExcept(t, testPu)) << f;
    for (const auto& l : p.loaders) EXPECT_EQ(l.node, noisy) << f;
  }
}

TEST(NoisePlan, SparseNodeNumbersAndRestrictedCpuset) {
  // Allowed: nodes 1 and 3 (of 4), PUs of nodes 1 and 3 only: spread
  // alternates between the allowed memory nodes, loaders only on allowed PUs.
  Topology t = HwlocTopology::synthetic("pack:4 [numa(memory=4GiB)] core:2 pu:1").model();
  t.restrict({2, 3, 6, 7}, {1, 3});
  NoisePlan p = planNoise(t, NoiseMode::Spread, 2, 0);
  EXPECT_EQ(loaderPus(p), (std::vector<unsigned>{3, 6, 7}));
  for (const auto& l : p.loaders) EXPECT_EQ(l.node, t.pu(l.pu)->node == 1 ? 3u : 1u);
  EXPECT_EQ(nextMemoryNode(t, 3), 1u);
  EXPECT_EQ(nextMemoryNode(t, 0), 1u);  // a node that is not allowed maps to the next allowed one
}

TEST(NoisePlan, OneNodeSpreadReadsTheSameNode) {
  Topology t = HwlocTopology::synthetic("pack:1 [numa(memory=4GiB)] core:2 pu:1").model();
  NoisePlan p = planNoise(t, NoiseMode::Spread, 0, 0);
  ASSERT_EQ(p.loaders.size(), 1u);
  EXPECT_EQ(p.loaders[0].pu, 1u);
  EXPECT_EQ(p.loaders[0].node, 0u);
}

TEST(NoisePlan, LoaderBuffersOutgrowTheLastLevelCache) {
  // No caches: the seed's 32 MiB.
  Topology bare = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] core:2 pu:1").model();
  EXPECT_EQ(loaderBufferBytes(bare, 1, {1, 2, 3}), 32 * MiB);
  // 4 loaders under one 256 MiB L3: each reads 2 x 256 / 4 = 128 MiB.
  Topology big = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] l3:1(size=256MiB) core:4 pu:1").model();
  uint64_t l3 = big.pu(0)->caches.back().sizeBytes;
  uint64_t each = loaderBufferBytes(big, 4, {4, 5, 6, 7, 1, 2, 3});
  EXPECT_GE(each * 4, 2 * l3);
  EXPECT_LT(each * 4, 2 * l3 + 4 * MiB);
  // 3 loaders in package 0 (PU 0 is the test PU).
  EXPECT_GE(loaderBufferBytes(big, 1, {4, 5, 6, 7, 1, 2, 3}) * 3, 2 * l3);
  // Small L3: the 32 MiB floor.
  Topology small = HwlocTopology::synthetic("pack:2 [numa(memory=4GiB)] l3:1(size=8MiB) core:4 pu:1").model();
  EXPECT_EQ(loaderBufferBytes(small, 4, {4, 5, 6, 7}), 32 * MiB);
}
