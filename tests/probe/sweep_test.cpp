// Plateau detection on made-up sweep curves.
#include <gtest/gtest.h>

#include "probe/sweep.h"

using namespace numaperf::probe;

namespace {
const uint64_t KiB = 1024, MiB = 1024 * KiB;

std::vector<CacheInfo> caches(std::vector<uint64_t> sizes) {
  std::vector<CacheInfo> v;
  int level = 1;
  for (uint64_t s : sizes) {
    CacheInfo c;
    c.level = level++;
    c.sizeBytes = s;
    v.push_back(c);
  }
  return v;
}

// A staircase: 1 ns in L1, 4 ns in L2, 20 ns in L3, 100 ns beyond.
std::vector<SweepPoint> staircase(const std::vector<CacheInfo>& cs, uint64_t dram) {
  std::vector<SweepPoint> pts;
  for (uint64_t s : sweepSizes(cs, dram)) {
    double ns = 100;
    for (auto it = cs.rbegin(); it != cs.rend(); ++it)
      if (s <= it->sizeBytes) ns = it->level == 1 ? 1 : it->level == 2 ? 4 : 20;
    pts.push_back({s, ns});
  }
  return pts;
}
}  // namespace

TEST(Sweep, SizesArePowersOfTwoUpToTheBuffer) {
  auto s = sweepSizes({}, 512 * MiB);
  EXPECT_EQ(s.front(), 4 * KiB);
  EXPECT_EQ(s.back(), 512 * MiB);
  for (size_t i = 1; i < s.size(); ++i) EXPECT_EQ(s[i], 2 * s[i - 1]);
  auto odd = sweepSizes({}, 3 * MiB);
  EXPECT_EQ(odd.back(), 3 * MiB);
}

TEST(Sweep, FindsPlateausAtHwlocSizes) {
  auto cs = caches({48 * KiB, 2 * MiB, 105 * MiB});
  auto p = findPlateaus(cs, staircase(cs, 512 * MiB));
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].name, "L1");
  EXPECT_EQ(p[0].fromBytes, 4 * KiB);
  EXPECT_EQ(p[0].toBytes, 16 * KiB);
  EXPECT_DOUBLE_EQ(p[0].ns, 1);
  EXPECT_EQ(p[1].name, "L2");
  EXPECT_EQ(p[1].fromBytes, 128 * KiB);
  EXPECT_EQ(p[1].toBytes, 1 * MiB);
  EXPECT_DOUBLE_EQ(p[1].ns, 4);
  EXPECT_EQ(p[2].name, "L3");
  EXPECT_EQ(p[2].fromBytes, 4 * MiB);
  EXPECT_EQ(p[2].toBytes, 32 * MiB);
  EXPECT_DOUBLE_EQ(p[2].ns, 20);
  EXPECT_EQ(p[3].name, "DRAM");
  EXPECT_EQ(p[3].cacheBytes, 0u);
  EXPECT_EQ(p[3].fromBytes, 512 * MiB);
  EXPECT_DOUBLE_EQ(p[3].ns, 100);
  EXPECT_TRUE(plateausIncrease(p, 1.5));
}

TEST(Sweep, MedianIgnoresAnOutlier) {
  auto cs = caches({32 * KiB, 1 * MiB});
  auto pts = staircase(cs, 64 * MiB);
  pts[1].ns = 50;  // 8 KiB disturbed
  auto p = findPlateaus(cs, pts);
  EXPECT_DOUBLE_EQ(p[0].ns, 1);
}

TEST(Sweep, NarrowLevelFallsBackToItsWholeRange) {
  // L2 only twice L1: the window [2 L1, L2/2] is empty.
  auto cs = caches({64 * KiB, 128 * KiB});
  auto p = findPlateaus(cs, staircase(cs, 8 * MiB));
  ASSERT_GE(p.size(), 2u);
  EXPECT_EQ(p[1].name, "L2");
  EXPECT_EQ(p[1].fromBytes, 128 * KiB);
}

TEST(Sweep, DramWithoutRoomForFourTimesTheCache) {
  auto cs = caches({32 * KiB, 1 * MiB, 64 * MiB});
  auto p = findPlateaus(cs, staircase(cs, 128 * MiB));
  ASSERT_EQ(p.back().name, "DRAM");
  EXPECT_EQ(p.back().fromBytes, 128 * MiB);
}

TEST(Sweep, NoCachesOnlyDram) {
  auto p = findPlateaus({}, {{4 * KiB, 80}, {8 * KiB, 82}});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].name, "DRAM");
  EXPECT_DOUBLE_EQ(p[0].ns, 81);
}

TEST(Sweep, NotIncreasing) {
  std::vector<Plateau> p(3);
  p[0].ns = 1;
  p[1].ns = 5;
  p[2].ns = 4;
  EXPECT_FALSE(plateausIncrease(p));
  p[2].ns = 5.5;
  EXPECT_TRUE(plateausIncrease(p, 1.05));
  EXPECT_FALSE(plateausIncrease(p, 1.2));
}
