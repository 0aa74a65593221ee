#include "core/deferred_forgets.h"
#include "core/object_registry.h"
#include "core/shadow_memory.h"
#include "core/stack_store.h"
#include "core/thread_registry.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace numaperf;

namespace {

void countRemote(uintptr_t addr, uint64_t times) {
  PageEntry *e = shadowMemory().entryFor(addr);
  shadowMemory().detailFor(e)->line_remote[(addr >> kLineShift) % kLinesPerPage].fetch_add(times);
}

StackRecord *site(uintptr_t pc) {
  uintptr_t frames[2] = {pc, 0x1234};
  return stackStore().intern(frames, 2);
}

}  // namespace

TEST(ObjectRegistry, FreedObjectsKeepTheirTotalsUnderTheirSite) {
  ASSERT_TRUE(shadowMemory().init());
  ObjectRegistry registry;
  std::vector<char> block(64 * 1024);
  auto start = reinterpret_cast<uintptr_t>(block.data());
  StackRecord *s = site(0xabc001);
  registry.addHeap(start, block.size(), s);
  EXPECT_EQ(registry.heapSize(start), block.size());
  countRemote(start + 4096 * 3, 40);
  countRemote(start + 100, 2);
  EXPECT_TRUE(registry.removeHeap(start, true));
  EXPECT_EQ(registry.heapSize(start), 0u);
  EXPECT_FALSE(registry.removeHeap(start, true));  // already gone
  ASSERT_NE(s->profile.get(), nullptr);
  EXPECT_GE(s->profile.get()->remote, 40u);
  EXPECT_LE(s->profile.get()->remote, 42u);
  // A later object at the same address starts from zero.
  StackRecord *s2 = site(0xabc002);
  registry.addHeap(start, block.size(), s2);
  registry.foldAll();
  EXPECT_TRUE(s2->profile.get() == nullptr || s2->profile.get()->remote == 0);
}

// A block that only partly covers its first and last pages (glibc's arena
// blocks): when the pages stayed private to the thread freeing it, they forget
// their first toucher, so the next thread given the addresses does not
// inherit them. Not at the free: when the thread exits (or the page leaves
// its table of such pages, deferred_forgets_test.cpp), and only if no other
// thread reached the page meanwhile. A page another thread reached, or owns,
// keeps its owner; pages wholly inside the block forget at once.
TEST(ObjectRegistry, EdgePagesPrivateToTheRetirerAreForgotten) {
  ASSERT_TRUE(shadowMemory().init());
  alignas(4096) static char arena[6 * 4096];
  const auto base = reinterpret_cast<uintptr_t>(arena);
  const uintptr_t start = base + 4096 + 3184, end = start + 2 * 4096;  // pages 1..3, 1 and 3 partly
  ShadowMemory &shadow = shadowMemory();
  auto owner = [&](int page) { return shadow.entryFor(base + page * 4096)->owner.load(); };
  std::thread([&] {
    ThreadState *t = threadRegistry().registerCurrentThread(nullptr, 0);
    ASSERT_NE(t, nullptr);
    ObjectRegistry registry;
    for (uintptr_t page = base + 4096; page < base + 4 * 4096; page += 4096)
      shadow.entryFor(page)->owner.store(t->owner_tag);
    // Another thread's private page: not the retirer's to forget.
    shadow.entryFor(base + 4096)->owner.store(t->owner_tag + 1000);
    shadow.noteClaim();  // what the hooks do when they claim a page
    registry.addHeap(start, end - start, nullptr);
    EXPECT_TRUE(registry.removeHeap(start, true));
    EXPECT_EQ(owner(1), t->owner_tag + 1000);
    EXPECT_EQ(owner(2), 0u);  // whole page
    EXPECT_EQ(owner(3), t->owner_tag);  // deferred
    forgetDeferredPages(*t);
    EXPECT_EQ(owner(1), t->owner_tag + 1000);
    EXPECT_EQ(owner(3), 0u);

    for (uintptr_t page = base + 4096; page < base + 4 * 4096; page += 4096)
      shadow.entryFor(page)->owner.store(t->owner_tag);
    registry.addHeap(start, end - start, nullptr);
    EXPECT_TRUE(registry.removeHeap(start, true));
    EXPECT_EQ(owner(1), t->owner_tag);
    EXPECT_EQ(owner(2), 0u);
    EXPECT_EQ(owner(3), t->owner_tag);
    // The last page is reached by another thread after the free (a remote
    // access counted): it is shared now, not the exiting thread's to forget.
    shadow.entryFor(base + 3 * 4096)->early_remote.store(5);
    threadRegistry().markCurrentThreadExited();
    EXPECT_EQ(owner(1), 0u);
    EXPECT_EQ(owner(3), t->owner_tag);
  }).join();
}

TEST(ObjectRegistry, ManyObjectsFromManyThreads) {
  ObjectRegistry registry;
  constexpr int kPerThread = 5000;
  std::vector<std::vector<uint64_t>> blocks(4, std::vector<uint64_t>(kPerThread));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i)
        registry.addHeap(reinterpret_cast<uintptr_t>(&blocks[t][i]), 8, nullptr);
    });
  for (auto &t : threads) t.join();
  EXPECT_EQ(registry.liveHeapObjects(), uint64_t(4 * kPerThread));
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < kPerThread; i += 2)
      EXPECT_TRUE(registry.removeHeap(reinterpret_cast<uintptr_t>(&blocks[t][i]), false));
  EXPECT_EQ(registry.liveHeapObjects(), uint64_t(2 * kPerThread));
  EXPECT_EQ(registry.heapSize(reinterpret_cast<uintptr_t>(&blocks[1][1])), 8u);
}

TEST(ObjectRegistry, GlobalsAreDeduplicatedAndKeepTotalsAfterUnload) {
  ASSERT_TRUE(shadowMemory().init());
  ObjectRegistry registry;
  static char table[8192];
  auto start = reinterpret_cast<uintptr_t>(table);
  registry.addGlobal(start, sizeof table, "table", "t.c", 3);
  registry.addGlobal(start, sizeof table, "table", "t.c", 3);  // comdat twin
  int count = 0;
  for (GlobalObject *g = registry.firstGlobal(); g; g = g->next) ++count;
  EXPECT_EQ(count, 1);
  countRemote(start + 128, 9);
  char name[] = "table";
  registry.firstGlobal()->name = name;  // the module's string...
  registry.removeGlobal(start);
  name[0] = 'X';  // ...goes away with the module
  GlobalObject *g = registry.firstGlobal();
  EXPECT_FALSE(g->live);
  EXPECT_STREQ(g->name, "table");
  ASSERT_NE(g->profile.get(), nullptr);
  EXPECT_GE(g->profile.get()->remote, 9u);
}

// Before anything is profiled a small block's free needs no work: its map
// entry may stay. Large blocks, and registries where a small block went to
// the shards, need removeHeap.
TEST(ObjectRegistry, UnprofiledFreesSkipOnlyWhatTheMapHolds) {
  ObjectRegistry registry;
  EXPECT_FALSE(registry.skipsUnprofiledFree(24));  // not known to be spaced
  registry.setSpacedAllocator(true);
  EXPECT_TRUE(registry.skipsUnprofiledFree(24));
  EXPECT_TRUE(registry.skipsUnprofiledFree(BlockMap::kMaxSize));
  EXPECT_FALSE(registry.skipsUnprofiledFree(BlockMap::kMaxSize + 1));

  ObjectRegistry packed;  // not spaced: 16 bytes apart is allowed
  const uintptr_t g = uintptr_t(8) << 40;
  packed.addHeap(g, 16, site(0xabc103));
  packed.addHeap(g + 16, 16, site(0xabc104));  // the granule's other half: to the shards
  packed.setSpacedAllocator(true);
  EXPECT_FALSE(packed.skipsUnprofiledFree(16));  // a small block is in the shards
  EXPECT_TRUE(packed.removeHeap(g + 16, false));
}

// Dead entries (small blocks freed before anything was profiled, left in
// the map) give way at exit: counts inside a live block go to the live
// block, whether it is large (in the shards) or small (in the map, starting
// before the dead entry). Only counts outside every live block go to a dead
// entry's site.
TEST(ObjectRegistry, DeadEntriesGiveWayToTheLiveBlocksCoveringThem) {
  ASSERT_TRUE(shadowMemory().init());
  static std::vector<char> heap(4 << 20);
  const uintptr_t base = (reinterpret_cast<uintptr_t>(heap.data()) + 4095) & ~uintptr_t(4095);
  ObjectRegistry registry;
  registry.setSpacedAllocator(true);
  StackRecord *dead_in_large = site(0xabc201), *dead_in_small = site(0xabc202),
              *dead_alone = site(0xabc203), *large = site(0xabc204), *small = site(0xabc205);
  // Freed with nothing profiled: entries left.
  registry.addHeap(base + 8192 + 32, 24, dead_in_large);
  registry.addHeap(base + (2 << 20) + 64, 24, dead_in_small);
  registry.addHeap(base + (3 << 20), 24, dead_alone);
  ASSERT_TRUE(registry.skipsUnprofiledFree(24));
  // Later blocks over the same memory.
  registry.addHeap(base, BlockMap::kMaxSize + 4096, large);  // to the shards
  registry.addHeap(base + (2 << 20), 4096, small);
  countRemote(base + 8192 + 40, 7);
  countRemote(base + (2 << 20) + 72, 5);
  countRemote(base + (3 << 20) + 8, 3);
  registry.foldAll();
  auto remote = [](StackRecord *s) { return s->profile.get() ? s->profile.get()->remote : 0; };
  EXPECT_EQ(remote(large), 7u);
  EXPECT_EQ(remote(small), 5u);
  EXPECT_EQ(remote(dead_in_large), 0u);
  EXPECT_EQ(remote(dead_in_small), 0u);
  EXPECT_GT(remote(dead_alone), 0u);  // its share of the line
}
