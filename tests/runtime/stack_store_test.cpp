#include "core/stack_store.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

using namespace numaperf;

TEST(StackStore, SameStackGivesSameRecord) {
  StackStore store;
  uintptr_t a[3] = {1, 2, 3}, b[3] = {1, 2, 3}, c[3] = {1, 2, 4};
  StackRecord *ra = store.intern(a, 3);
  EXPECT_EQ(ra, store.intern(b, 3));
  EXPECT_NE(ra, store.intern(c, 3));
  EXPECT_NE(ra, store.intern(a, 2));  // a prefix is another stack
  EXPECT_EQ(store.size(), 3u);
  EXPECT_EQ(ra->depth, 3u);
  EXPECT_EQ(ra->frames[2], 3u);
}

TEST(StackStore, ConcurrentInsertsDeduplicate) {
  StackStore store;
  std::vector<std::thread> threads;
  std::vector<std::vector<StackRecord *>> seen(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (uintptr_t i = 0; i < 2000; ++i) {
        uintptr_t frames[2] = {i, i * 7};
        seen[t].push_back(store.intern(frames, 2));
      }
    });
  for (auto &t : threads) t.join();
  EXPECT_EQ(store.size(), 2000u);
  for (int t = 1; t < 4; ++t) EXPECT_EQ(seen[t], seen[0]);
  std::set<uint32_t> ids;
  for (StackRecord *r = store.first(); r; r = r->next_in_store) ids.insert(r->id);
  EXPECT_EQ(ids.size(), 2000u);
}

TEST(StackStore, AllocationTotals) {
  StackStore store;
  uintptr_t f[1] = {42};
  StackRecord *r = store.intern(f, 1);
  r->noteAllocations(1, 100);
  r->noteAllocations(1, 50);
  r->noteAllocations(1, 300);
  EXPECT_EQ(r->instances.load(), 3u);
  EXPECT_EQ(r->max_size.load(), 300u);
}

// The allocation interceptor reuses a thread's last site when the frames
// match it (allocation_tracking.cpp): a match must be exact, prefix and
// extension included.
TEST(StackStore, RecordMatchesOnlyItsOwnStack) {
  StackStore store;
  uintptr_t a[3] = {1, 2, 3};
  StackRecord *r = store.intern(a, 3);
  uintptr_t same[3] = {1, 2, 3}, outer_differs[3] = {1, 2, 9}, longer[4] = {1, 2, 3, 4};
  EXPECT_TRUE(r->matches(same, 3));
  EXPECT_FALSE(r->matches(outer_differs, 3));
  EXPECT_FALSE(r->matches(same, 2));
  EXPECT_FALSE(r->matches(longer, 4));
  uintptr_t none[1] = {0};
  StackRecord *empty = store.intern(none, 0);
  EXPECT_TRUE(empty->matches(none, 0));
  EXPECT_FALSE(empty->matches(a, 1));
}
