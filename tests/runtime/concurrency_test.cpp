// Several threads on the same shared pages at once, as the access hooks
// drive them (core/access_hooks.cpp): each thread counts through its own
// shared-page cache and flushes it when it ends. Checked for exact counts
// here, and for data races when the unit tests run under ThreadSanitizer
// (scripts/sanitizers.sh, docs/selfcheck.md).
#include "core/object_fold.h"
#include "core/shadow_memory.h"
#include "core/shared_page_cache.h"
#include "core/sharing_tracker.h"
#include "core/thread_registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace numaperf;

namespace {

constexpr unsigned kThreads = 4, kPages = 2;
constexpr uint64_t kRounds = 2000;

struct ConcurrencyTest : ::testing::Test {
  void SetUp() override {
    ASSERT_TRUE(shadowMemory().init());
    base = (reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1);
  }
  void TearDown() override {
    ObjectProfile drop;  // leave the shadow clean for the next test
    takeObjectProfile(base, base + kPages * kPageSize, true, &drop);
  }
  std::vector<char> storage = std::vector<char>((kPages + 1) * kPageSize);
  uintptr_t base = 0;
};

}  // namespace

TEST_F(ConcurrencyTest, SharedPageCountsAreExactUnderContention) {
  std::atomic<unsigned> ready{0};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      const uint32_t tag = i + 1;
      SharedPageCache cache;
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      for (uint64_t r = 0; r < kRounds; ++r) {
        // Own words of a line every thread writes (false sharing), one word
        // all of them write (true sharing), and reads of both pages.
        uintptr_t page = base + (r % kPages) * kPageSize;
        uintptr_t addr = page + (r % 8) * kLineSize + 4 * i;
        PageEntry *e = shadowMemory().entryFor(addr);
        uint32_t owner = 0;
        e->owner.compare_exchange_strong(owner, tag, std::memory_order_relaxed);
        PageDetail *d = shadowMemory().detailFor(e);
        ASSERT_NE(d, nullptr);
        if (!d->shared.load(std::memory_order_relaxed))
          d->shared.store(true, std::memory_order_relaxed);
        bool remote = e->owner.load(std::memory_order_relaxed) != tag;
        bool write = r % 3 != 0;
        uintptr_t at = r % 5 == 0 ? page : addr;
        countSharedAccess(cache, tag, d, at, lineWordMask(at, 4), write, remote, 0x1000 + i);
      }
      flushSharedPageCache(cache, tag, true);
    });
  for (auto &t : threads) t.join();

  uint64_t total = 0, per_thread[kThreads] = {};
  for (unsigned p = 0; p < kPages; ++p) {
    PageDetail *d = shadowMemory().entryFor(base + p * kPageSize)->detail.load();
    ASSERT_NE(d, nullptr);
    forEachPageThread(*d, [&](uint32_t tag, uint64_t accesses) {
      ASSERT_GE(tag, 1u);
      ASSERT_LE(tag, kThreads);
      per_thread[tag - 1] += accesses;
      total += accesses;
    });
  }
  EXPECT_EQ(total, kThreads * kRounds);
  for (unsigned i = 0; i < kThreads; ++i) EXPECT_EQ(per_thread[i], kRounds) << "thread " << i + 1;
  ObjectProfile p;
  takeObjectProfile(base, base + kPages * kPageSize, true, &p);
  EXPECT_EQ(p.shared_reads + p.shared_writes, kThreads * kRounds);
  EXPECT_GT(p.invalidations, 0u);
}

// Threads starting and ending while others fold finished records.
TEST(ConcurrencyRegistry, ChurnWithFolding) {
  ThreadRegistry registry;
  registry.setFinishedRecordCap(4);
  constexpr unsigned kWorkers = 3, kEach = 100;
  std::vector<std::thread> spawners;
  for (unsigned w = 0; w < kWorkers; ++w)
    spawners.emplace_back([&] {
      for (unsigned n = 0; n < kEach; ++n)
        std::thread([&] {
          ThreadState *t = registry.registerCurrentThread(nullptr, 0);
          ASSERT_NE(t, nullptr);
          t->accesses = 1;
          registry.markCurrentThreadExited();
        }).join();
    });
  for (auto &t : spawners) t.join();
  registry.stopFolding();
  uint64_t accesses = 0, records = 0;
  registry.forEach([&](const ThreadState &t) {
    accesses += t.accesses;
    ++records;
  });
  registry.forEachFolded([&](const FoldedThreads &g) { accesses += g.accesses; });
  EXPECT_EQ(accesses, uint64_t(kWorkers * kEach));
  EXPECT_EQ(records + registry.foldedThreads(), uint64_t(kWorkers * kEach));
  EXPECT_LE(records, 5u);
}
