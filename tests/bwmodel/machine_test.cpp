#include <gtest/gtest.h>

#include "bwmodel/error.h"
#include "bwmodel/machine.h"

using namespace numaperf::bwmodel;

TEST(Machine, Synthetic) {
  Machine m = loadMachine("synthetic:pack:2 [numa] core:4 pu:1");
  ASSERT_EQ(m.sockets.size(), 2u);
  EXPECT_EQ(m.sockets[0].pus, 4u);
  EXPECT_EQ(m.sockets[1].node, 1u);
  EXPECT_NO_THROW(validatePlacement({3, 1}, m));
  EXPECT_NO_THROW(validatePlacement({4, 0}, m));
  EXPECT_THROW(validatePlacement({5, 0}, m), BwmodelError);  // 4 PUs per socket
  EXPECT_THROW(validatePlacement({1, 1, 1}, m), BwmodelError);
  EXPECT_THROW(validatePlacement({3}, m), BwmodelError);
  EXPECT_THROW(validatePlacement({0, 0}, m), BwmodelError);
}

TEST(Machine, XmlWithCpulessNode) {
  Machine m = loadMachine(std::string("xml:") + BWMODEL_TOPOLOGY_DIR + "/four_nodes_cpuless_asym.xml");
  EXPECT_FALSE(m.memoryOnlyNodes.empty());
  EXPECT_GE(m.sockets.size(), 1u);
}

TEST(Machine, BadSpec) {
  EXPECT_THROW(loadMachine("bogus"), BwmodelError);
  EXPECT_THROW(loadMachine("xml:/nonexistent.xml"), BwmodelError);
  EXPECT_THROW(loadMachine("synthetic:pack:x"), BwmodelError);
}

TEST(Machine, Abstract) {
  Machine m = abstractMachine(3);
  EXPECT_NO_THROW(validatePlacement({100, 0, 1}, m));
}

TEST(Placement, Parse) {
  EXPECT_EQ(parsePlacement("3,1"), (Placement{3, 1}));
  EXPECT_EQ(parsePlacement("4"), (Placement{4}));
  for (const char* bad : {"", "3,", ",1", "a,1", "-1,2", "3;1", "1,,2"})
    EXPECT_THROW(parsePlacement(bad), BwmodelError) << bad;
}
