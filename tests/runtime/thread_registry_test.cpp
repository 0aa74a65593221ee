#include "core/thread_registry.h"

#include <gtest/gtest.h>

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
