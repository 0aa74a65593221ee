#include "core/thread_registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

using namespace numaperf;

TEST(ThreadRegistry, RegistrationIsIdempotentPerThread) {
  ThreadRegistry registry;
  // The TLS pointer is shared by all registries in a process, so run on a
  // fresh thread.
  std::thread([&] {
    ThreadState *a = registry.registerCurrentThread(nullptr, 0);
    ThreadState *b = registry.registerCurrentThread(nullptr, 0);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a->owner_tag, a->index + 1);
  }).join();
  EXPECT_EQ(registry.threadCount(), 1u);
}

TEST(ThreadRegistry, DenseUniqueIndicesBeyondOneChunk) {
  ThreadRegistry registry;
  constexpr int kThreads = 2100;  // more than two chunks of 1024
  for (int batch = 0; batch < kThreads / 100; ++batch) {
    std::vector<std::thread> threads;
    for (int i = 0; i < 100; ++i)
      threads.emplace_back([&] { registry.registerCurrentThread(nullptr, 0); });
    for (auto &t : threads) t.join();
  }
  ASSERT_EQ(registry.threadCount(), uint32_t(kThreads));
  std::set<uint32_t> seen;
  uint32_t expected = 0;
  registry.forEach([&](const ThreadState &t) {
    EXPECT_EQ(t.index, expected++);  // visited in index order
    seen.insert(t.index);
  });
  EXPECT_EQ(seen.size(), size_t(kThreads));
  EXPECT_EQ(registry.byIndex(kThreads), nullptr);
}

TEST(ThreadRegistry, ExitTimeIsRecorded) {
  ThreadRegistry registry;
  ThreadState *state = nullptr;
  std::thread([&] {
    state = registry.registerCurrentThread(reinterpret_cast<void *>(&monotonicNanos), 0);
    EXPECT_EQ(state->end_ns.load(), 0u);
    registry.markCurrentThreadExited();
  }).join();
  ASSERT_NE(state, nullptr);
  EXPECT_GE(state->end_ns.load(), state->start_ns);
  EXPECT_EQ(state->start_routine, reinterpret_cast<void *>(&monotonicNanos));
}

// Thread churn: beyond the cap, finished threads' records are folded into
// per-start-routine totals; nothing is lost from the totals, and the time
// two or more threads were alive is still measured.
TEST(ThreadRegistry, FinishedRecordsBeyondTheCapAreFolded) {
  ThreadRegistry registry;
  constexpr uint32_t kCap = 8, kWave = 4, kWaves = 25, kThreads = kWave * kWaves;
  registry.setFinishedRecordCap(kCap);
  void *const routines[2] = {reinterpret_cast<void *>(&monotonicNanos),
                             reinterpret_cast<void *>(&threadRegistry)};
  std::atomic<uint32_t> arrived{0};
  uint64_t start = monotonicNanos();
  for (uint32_t wave = 0; wave < kWaves; ++wave) {
    std::vector<std::thread> threads;
    for (uint32_t i = 0; i < kWave; ++i)
      threads.emplace_back([&, wave, i] {
        uint32_t n = wave * kWave + i;
        ThreadState *t = registry.registerCurrentThread(routines[n % 2], 0);
        ASSERT_NE(t, nullptr);
        t->accesses = n + 1;
        t->lock_contentions = 1;
        // The wave's threads are alive together.
        arrived.fetch_add(1);
        while (arrived.load() < (wave + 1) * kWave) std::this_thread::yield();
        registry.markCurrentThreadExited();
        registry.markCurrentThreadExited();  // pthread_exit, then the trampoline
      });
    for (auto &t : threads) t.join();
  }
  uint64_t end = monotonicNanos();
  ASSERT_EQ(registry.threadCount(), kThreads);
  // Index 0 (the main thread of a program) keeps its record, and so do the
  // last kCap finished threads.
  EXPECT_EQ(registry.foldedThreads(), uint64_t(kThreads - kCap - 1));
  registry.stopFolding();
  uint64_t records = 0, accesses = 0, contentions = 0, folded = 0;
  registry.forEach([&](const ThreadState &t) {
    ++records;
    accesses += t.accesses;
    contentions += t.lock_contentions;
  });
  EXPECT_EQ(records, uint64_t(kCap + 1));
  EXPECT_NE(registry.byIndex(0), nullptr);
  EXPECT_NE(registry.byIndex(kThreads - 1), nullptr);
  EXPECT_EQ(registry.byIndex(1), nullptr);  // folded
  int groups = 0;
  registry.forEachFolded([&](const FoldedThreads &g) {
    ++groups;
    EXPECT_TRUE(g.start_routine == routines[0] || g.start_routine == routines[1]);
    EXPECT_LE(g.first_start_ns, g.last_end_ns);
    folded += g.threads;
    accesses += g.accesses;
    contentions += g.lock_contentions;
  });
  EXPECT_EQ(groups, 2);
  EXPECT_EQ(folded, registry.foldedThreads());
  EXPECT_EQ(accesses, uint64_t(kThreads) * (kThreads + 1) / 2);
  EXPECT_EQ(contentions, uint64_t(kThreads));
  uint64_t parallel = registry.parallelNanos(end);
  EXPECT_GT(parallel, 0u);
  EXPECT_LE(parallel, end - start);
}

TEST(ThreadRegistry, NoFoldingWithoutACap) {
  ThreadRegistry registry;
  for (int i = 0; i < 20; ++i)
    std::thread([&] {
      registry.registerCurrentThread(nullptr, 0);
      registry.markCurrentThreadExited();
    }).join();
  EXPECT_EQ(registry.foldedThreads(), 0u);
  uint64_t records = 0;
  registry.forEach([&](const ThreadState &) { ++records; });
  EXPECT_EQ(records, 20u);
}
