#include "core/object_fold.h"
#include "core/shadow_memory.h"

#include <gtest/gtest.h>

#include <vector>

using namespace numaperf;

namespace {

// Simulates what the access hook does for a remote access.
void countRemote(uintptr_t addr, uint64_t times) {
  PageEntry *e = shadowMemory().entryFor(addr);
  PageDetail *d = shadowMemory().detailFor(e);
  d->line_remote[(addr >> kLineShift) % kLinesPerPage].fetch_add(times);
}

struct ShadowTest : ::testing::Test {
  void SetUp() override { ASSERT_TRUE(shadowMemory().init()); }
  // A page-aligned range the test owns.
  std::vector<char> storage = std::vector<char>(8 * kPageSize);
  uintptr_t base() const {
    return (reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1);
  }
};

}  // namespace

TEST_F(ShadowTest, EntriesAreDistinctPerPageAndSharedWithinAPage) {
  uintptr_t b = base();
  EXPECT_EQ(shadowMemory().entryFor(b), shadowMemory().entryFor(b + kPageSize - 1));
  EXPECT_NE(shadowMemory().entryFor(b), shadowMemory().entryFor(b + kPageSize));
  EXPECT_EQ(shadowMemory().entryFor(uintptr_t(1) << kAddressBits), nullptr);
}

TEST_F(ShadowTest, DetailIsCreatedOnceAndShared) {
  PageEntry *e = shadowMemory().entryFor(base());
  PageDetail *a = shadowMemory().detailFor(e);
  PageDetail *b = shadowMemory().detailFor(e);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, b);
}

uint64_t takeRemote(uintptr_t start, uintptr_t end, bool forget) {
  ObjectProfile p;
  takeObjectProfile(start, end, forget, &p);
  return p.remote;
}

TEST_F(ShadowTest, FoldTakesWholeLinesAndForgetsWholePages) {
  uintptr_t b = base() + kPageSize;
  countRemote(b, 10);
  countRemote(b + 64, 5);
  countRemote(b + kPageSize, 7);  // next page
  shadowMemory().entryFor(b)->owner.store(3);
  shadowMemory().entryFor(b + kPageSize)->owner.store(3);
  EXPECT_EQ(takeRemote(b, b + kPageSize, true), 15u);
  EXPECT_EQ(shadowMemory().entryFor(b)->owner.load(), 0u);             // forgotten
  ASSERT_NE(shadowMemory().entryFor(b)->detail.load(), nullptr);       // detail kept...
  EXPECT_FALSE(shadowMemory().entryFor(b)->detail.load()->shared.load());  // ...but reset
  EXPECT_EQ(shadowMemory().entryFor(b + kPageSize)->owner.load(), 3u);  // untouched
  EXPECT_EQ(takeRemote(b, b + kPageSize, true), 0u);  // taken once
  EXPECT_EQ(takeRemote(b + kPageSize, b + 2 * kPageSize, false), 7u);
}

TEST_F(ShadowTest, PartialLinesAreSharedInProportion) {
  uintptr_t line = base() + 3 * kPageSize;
  countRemote(line, 64);
  // Two 32-byte objects in one line take all of its count between them,
  // half each, whichever goes first; nothing is ever counted twice.
  EXPECT_EQ(takeRemote(line + 32, line + 64, true), 32u);
  EXPECT_EQ(takeRemote(line, line + 32, true), 32u);
  EXPECT_EQ(takeRemote(line, line + 64, true), 0u);
  // Four 16-byte objects in any order, counts arriving in between: each
  // takes its part of what the objects still there share.
  countRemote(line, 40);
  EXPECT_EQ(takeRemote(line + 16, line + 32, true), 10u);
  countRemote(line, 30);  // 60 for the three left
  EXPECT_EQ(takeRemote(line + 48, line + 64, true), 20u);
  EXPECT_EQ(takeRemote(line, line + 16, true), 20u);
  EXPECT_EQ(takeRemote(line + 32, line + 48, true), 20u);
  EXPECT_EQ(takeRemote(line, line + 64, true), 0u);
  // A partial page does not lose its first toucher.
  shadowMemory().entryFor(line)->owner.store(9);
  takeRemote(line, line + 64, true);
  EXPECT_EQ(shadowMemory().entryFor(line)->owner.load(), 9u);
}

TEST_F(ShadowTest, EarlyRemoteAccessesAreSharedOutByBytes) {
  uintptr_t page = base() + 5 * kPageSize;
  shadowMemory().entryFor(page)->early_remote.store(100);
  // A quarter-page object takes a quarter; the whole page takes the rest.
  EXPECT_EQ(takeRemote(page, page + kPageSize / 4, false), 25u);
  EXPECT_EQ(takeRemote(page, page + kPageSize, true), 75u);
  EXPECT_EQ(shadowMemory().entryFor(page)->early_remote.load(), 0u);
}

// The closed form walks one period of offsets; element by element must agree
// for any start, stride, width and count.
TEST(LineGeometry, CrossingElementsMatchAnElementByElementCount) {
  for (uintptr_t a : {uintptr_t(0x10000), uintptr_t(0x10008), uintptr_t(0x1003c), uintptr_t(0x10031)})
    for (uint64_t step : {1u, 8u, 12u, 16u, 24u, 40u, 48u, 64u, 72u, 96u, 136u, 4096u})
      for (uint64_t size : {9u, 16u, 24u, 33u, 64u})
        for (uint64_t n : {0u, 1u, 3u, 5u, 63u, 64u, 65u, 257u, 1000u}) {
          uint64_t expected = 0;
          for (uint64_t j = 0; j < n; ++j)
            expected += ((a + j * step) & (kLineSize - 1)) + size > kLineSize;
          ASSERT_EQ(elementsCrossingLines(a, step, size, n), expected)
              << "a " << a << " step " << step << " size " << size << " n " << n;
        }
}
