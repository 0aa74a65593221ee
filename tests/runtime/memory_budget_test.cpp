#include "common/internal_alloc.h"
#include "common/memory_budget.h"
#include "core/shadow_memory.h"

#include <gtest/gtest.h>

#include <vector>

using namespace numaperf;

namespace {

struct BudgetTest : ::testing::Test {
  void SetUp() override { ASSERT_TRUE(shadowMemory().init()); }
  void TearDown() override { setMemoryLimitBytes(0); }
  std::vector<char> storage = std::vector<char>(4 * kPageSize);
  uintptr_t page(int i) const {
    return ((reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1)) +
           uintptr_t(i) * kPageSize;
  }
};

}  // namespace

TEST_F(BudgetTest, DetailIsRefusedAndCountedOnceTheLimitIsReached) {
  internalFree(internalAlloc(64), 64);  // the allocator has mapped something
  setMemoryLimitBytes(internalBytesMapped());  // at the limit already
  uint64_t dropped = detailAllocationsDropped();
  EXPECT_EQ(shadowMemory().detailFor(shadowMemory().entryFor(page(0))), nullptr);
  EXPECT_EQ(internalAllocDetail(64), nullptr);
  EXPECT_EQ(detailAllocationsDropped(), dropped + 2);
  // Records the profile depends on are still allocated.
  void *record = internalAlloc(64);
  EXPECT_NE(record, nullptr);
  internalFree(record, 64);
}

TEST_F(BudgetTest, DetailIsAllowedUnderTheLimitAndWithoutOne) {
  setMemoryLimitBytes(internalBytesMapped() + (64u << 20));
  uint64_t dropped = detailAllocationsDropped();
  EXPECT_NE(shadowMemory().detailFor(shadowMemory().entryFor(page(1))), nullptr);
  setMemoryLimitBytes(0);
  EXPECT_NE(shadowMemory().detailFor(shadowMemory().entryFor(page(2))), nullptr);
  EXPECT_EQ(detailAllocationsDropped(), dropped);
}
