#include "core/fast_page.h"
#include "core/thread_registry.h"

#include <gtest/gtest.h>

#include <thread>

// libnumaperf.so defines the record pointer next to its hooks; these tests
// link the runtime's core without them.
__thread numaperf_fast_page *__numaperf_fast_page = &numaperf::g_no_fast_page;

using namespace numaperf;

namespace {

// Runs f on a fresh thread registered in the process registry (the one
// dropFastPage consults), with the thread's record bound.
template <typename F>
void onRegisteredThread(F f) {
  std::thread([&] {
    ThreadState *t = threadRegistry().registerCurrentThread(nullptr, 0);
    ASSERT_NE(t, nullptr);
    f(*t);
    threadRegistry().markCurrentThreadExited();
  }).join();
}

constexpr uintptr_t kAddr = uintptr_t(0x7f0000123000) + 40;

}  // namespace

TEST(FastPage, UnregisteredThreadsMatchNoPage) {
  std::thread([] {
    EXPECT_EQ(__numaperf_fast_page, &g_no_fast_page);
    for (const numaperf_fast_way &w : __numaperf_fast_page->ways)
      EXPECT_EQ(w.page, NUMAPERF_NO_FAST_PAGE);
    EXPECT_NE(fastPageNumber(~uintptr_t(0)), NUMAPERF_NO_FAST_PAGE);  // no address matches
  }).join();
}

TEST(FastPage, RegistrationBindsTheRecordAndExitUnbindsIt) {
  std::thread([] {
    ThreadState *t = threadRegistry().registerCurrentThread(nullptr, 0);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(__numaperf_fast_page, &t->fast.abi);
    threadRegistry().markCurrentThreadExited();
    EXPECT_EQ(__numaperf_fast_page, &g_no_fast_page);
  }).join();
}

TEST(FastPage, PublishedOnlyWhilePrivate) {
  onRegisteredThread([](ThreadState &t) {
    PageEntry e{};
    e.owner.store(t.owner_tag);
    publishFastPage(t, 0, &e, fastPageNumber(kAddr));
    EXPECT_EQ(t.fast.abi.ways[0].page, fastPageNumber(kAddr));

    // Another thread made it shared: publishing again finds out.
    PageDetail d;
    d.shared.store(true);
    e.detail.store(&d);
    publishFastPage(t, 0, &e, fastPageNumber(kAddr));
    EXPECT_EQ(t.fast.abi.ways[0].page, NUMAPERF_NO_FAST_PAGE);

    // Not the first toucher.
    e.detail.store(nullptr);
    e.owner.store(t.owner_tag + 1);
    publishFastPage(t, 0, &e, fastPageNumber(kAddr));
    EXPECT_EQ(t.fast.abi.ways[0].page, NUMAPERF_NO_FAST_PAGE);
  });
}

TEST(FastPage, DropClearsOnlyTheOwnersMatchingPage) {
  onRegisteredThread([](ThreadState &t) {
    PageEntry e{};
    e.owner.store(t.owner_tag);
    publishFastPage(t, 0, &e, fastPageNumber(kAddr));
    // Another page, another owner, no owner: nothing changes.
    std::thread([&] {
      dropFastPage(t.owner_tag, kAddr + kPageSize);
      dropFastPage(0, kAddr);
      dropFastPage(kManyUsers, kAddr);
    }).join();
    EXPECT_EQ(t.fast.abi.ways[0].page, fastPageNumber(kAddr));
    std::thread([&] { dropFastPage(t.owner_tag, kAddr); }).join();
    EXPECT_EQ(t.fast.abi.ways[0].page, NUMAPERF_NO_FAST_PAGE);
  });
}

TEST(FastPage, FlushAddsInlineCountsToThePageAndTheThread) {
  onRegisteredThread([](ThreadState &t) {
    PageEntry e{};
    e.owner.store(t.owner_tag);
    t.fast.entry[0] = &e;
    publishFastPage(t, 0, &e, fastPageNumber(kAddr));
    // What the inline test does on a match.
    for (int i = 0; i < 5; ++i) ++__numaperf_fast_page->ways[0].counts[0];
    for (int i = 0; i < 3; ++i) ++__numaperf_fast_page->ways[0].counts[1];
    uint64_t before = t.accesses;
    flushThreadPrivateCounts(t);
    EXPECT_EQ(e.owner_reads.load(), 5u);
    EXPECT_EQ(e.owner_writes.load(), 3u);
    EXPECT_EQ(t.accesses - before, 8u);
    EXPECT_EQ(t.fast.abi.ways[0].counts[0] + t.fast.abi.ways[0].counts[1], 0u);
    flushThreadPrivateCounts(t);  // nothing twice
    EXPECT_EQ(e.owner_reads.load(), 5u);
    t.fast.entry[0] = nullptr;  // e is about to go
  });
}

// Two private pages (a loop reading one array and writing another): each
// way keeps its own page and counts, a drop clears only the way holding the
// page, and a flush sends each way's counts to its own page.
TEST(FastPage, TwoWaysKeepTheirPagesAndCountsApart) {
  onRegisteredThread([](ThreadState &t) {
    PageEntry a{}, b{};
    a.owner.store(t.owner_tag);
    b.owner.store(t.owner_tag);
    const uintptr_t other = kAddr + 5 * kPageSize;
    t.fast.entry[0] = &a;
    t.fast.entry[1] = &b;
    publishFastPage(t, 0, &a, fastPageNumber(kAddr));
    publishFastPage(t, 1, &b, fastPageNumber(other));
    for (int i = 0; i < 4; ++i) ++__numaperf_fast_page->ways[0].counts[0];
    for (int i = 0; i < 6; ++i) ++__numaperf_fast_page->ways[1].counts[1];
    std::thread([&] { dropFastPage(t.owner_tag, other); }).join();
    EXPECT_EQ(t.fast.abi.ways[0].page, fastPageNumber(kAddr));
    EXPECT_EQ(t.fast.abi.ways[1].page, NUMAPERF_NO_FAST_PAGE);
    uint64_t before = t.accesses;
    flushFastWay(t, 1);
    EXPECT_EQ(b.owner_writes.load(), 6u);
    EXPECT_EQ(a.owner_reads.load(), 0u);  // way 0 still buffers its own
    flushThreadPrivateCounts(t);
    EXPECT_EQ(a.owner_reads.load(), 4u);
    EXPECT_EQ(b.owner_reads.load() + a.owner_writes.load(), 0u);
    EXPECT_EQ(t.accesses - before, 10u);
    t.fast.entry[0] = t.fast.entry[1] = nullptr;
  });
}
