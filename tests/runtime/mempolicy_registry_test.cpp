// The memory-policy registry (core/mempolicy_registry.h).
#include "core/mempolicy_registry.h"

#include <gtest/gtest.h>

namespace numaperf {
namespace {

constexpr uintptr_t kPage = 4096;

class MemPolicyRegistry : public ::testing::Test {
 protected:
  void SetUp() override { resetPolicyRegistry(); }
  void TearDown() override { resetPolicyRegistry(); }
};

TEST_F(MemPolicyRegistry, InterleavedRangeCoversItsPagesOnly) {
  recordRangePolicy(10 * kPage, 4 * kPage, MemPolicy::kInterleave);
  PolicyView v(0, 100 * kPage);
  EXPECT_FALSE(v.interleaved(9 * kPage, 1));
  EXPECT_TRUE(v.interleaved(10 * kPage, 1));
  EXPECT_TRUE(v.interleaved(13 * kPage, 1));
  EXPECT_FALSE(v.interleaved(14 * kPage, 1));
}

TEST_F(MemPolicyRegistry, LaterPolicyReplacesThePartItCovers) {
  recordRangePolicy(10 * kPage, 10 * kPage, MemPolicy::kInterleave);
  recordRangePolicy(12 * kPage, 2 * kPage, MemPolicy::kOther);  // split in two
  PolicyView v(0, 100 * kPage);
  EXPECT_TRUE(v.interleaved(11 * kPage, 1));
  EXPECT_FALSE(v.interleaved(12 * kPage, 1));
  EXPECT_FALSE(v.interleaved(13 * kPage, 1));
  EXPECT_TRUE(v.interleaved(14 * kPage, 1));
  forgetRangePolicy(10 * kPage, 10 * kPage);
  PolicyView after(0, 100 * kPage);
  EXPECT_FALSE(after.interleaved(11 * kPage, 1));
}

TEST_F(MemPolicyRegistry, TaskPolicyOfTheMainThreadIsInherited) {
  recordTaskPolicy(1, MemPolicy::kInterleave);  // main thread
  recordTaskPolicy(3, MemPolicy::kOther);       // a thread with its own
  PolicyView v(0, kPage);
  EXPECT_TRUE(v.interleaved(0, 1));
  EXPECT_TRUE(v.interleaved(0, 2));   // inherits main's
  EXPECT_FALSE(v.interleaved(0, 3));  // its own policy
}

TEST_F(MemPolicyRegistry, BoundRangeOverridesTheTaskPolicy) {
  recordTaskPolicy(1, MemPolicy::kInterleave);
  recordRangePolicy(0, kPage, MemPolicy::kOther);
  PolicyView v(0, 2 * kPage);
  EXPECT_FALSE(v.interleaved(0, 1));
  EXPECT_TRUE(v.interleaved(kPage, 1));
}

TEST_F(MemPolicyRegistry, FullRegistryCountsDroppedRanges) {
  for (uintptr_t i = 0; i < 300; ++i) recordRangePolicy(2 * i * kPage, kPage, MemPolicy::kInterleave);
  EXPECT_EQ(droppedPolicyRanges(), 300u - 256u);
}

}  // namespace
}  // namespace numaperf
