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
  // The `i`th page of `storage` that has no detail yet (pages keep their
  // detail after a reset, and earlier tests may have used these addresses).
  uintptr_t page(int i) const {
    uintptr_t p = (reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1);
    const uintptr_t end = reinterpret_cast<uintptr_t>(storage.data()) + storage.size();
    for (; p + kPageSize <= end; p += kPageSize) {
      PageEntry *e = shadowMemory().entryFor(p);
      if (e && !e->detail.load() && i-- == 0) return p;
    }
    ADD_FAILURE() << "no page without detail";
    return 0;
  }
  std::vector<char> storage = std::vector<char>(64 * kPageSize);
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
