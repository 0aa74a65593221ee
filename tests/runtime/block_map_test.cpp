#include "core/block_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <random>
#include <thread>
#include <vector>

using namespace numaperf;

namespace {

// Sites only need to be 16-byte aligned addresses; the map never reads them.
StackRecord *fakeSite(uintptr_t n) { return reinterpret_cast<StackRecord *>(n << 4); }

}  // namespace

TEST(BlockMap, BothHalvesOfAGranuleRoundTrip) {
  BlockMap map;
  const uintptr_t granule = uintptr_t(0x7f12345678) << 5;
  ASSERT_TRUE(map.insert(granule + 16, 24, fakeSite(0x7ffffffff)));
  HeapObject o;
  ASSERT_TRUE(map.find(granule + 16, &o));
  EXPECT_EQ(o.start, granule + 16);
  EXPECT_EQ(o.size, 24u);
  EXPECT_EQ(o.site, fakeSite(0x7ffffffff));
  EXPECT_FALSE(map.find(granule, &o));  // the other half is not this block
  EXPECT_FALSE(map.take(granule, &o));
  ASSERT_TRUE(map.take(granule + 16, &o));
  EXPECT_EQ(o.size, 24u);
  EXPECT_FALSE(map.take(granule + 16, &o));  // gone

  ASSERT_TRUE(map.insert(granule, BlockMap::kMaxSize, nullptr));
  ASSERT_TRUE(map.find(granule, &o));
  EXPECT_EQ(o.start, granule);
  EXPECT_EQ(o.size, BlockMap::kMaxSize);
  EXPECT_EQ(o.site, nullptr);
}

TEST(BlockMap, RefusesWhatItCannotHold) {
  BlockMap map;
  const uintptr_t base = uintptr_t(1) << 40;
  EXPECT_FALSE(map.insert(base + 8, 16, nullptr));                    // unaligned
  EXPECT_FALSE(map.insert(base, BlockMap::kMaxSize + 1, nullptr));     // too large
  EXPECT_FALSE(map.insert(base, 16, reinterpret_cast<StackRecord *>(0x1008)));  // odd site
  ASSERT_TRUE(map.insert(base, 16, nullptr));
  EXPECT_FALSE(map.insert(base + 16, 16, nullptr));  // the granule's other half is taken
  // The same start again (a free that was missed): replaced.
  ASSERT_TRUE(map.insert(base, 48, fakeSite(7)));
  HeapObject o;
  ASSERT_TRUE(map.find(base, &o));
  EXPECT_EQ(o.size, 48u);
  EXPECT_EQ(o.site, fakeSite(7));
  EXPECT_EQ(map.count(), 1u);
}

// forEach and count see exactly the recorded blocks, spread over many
// chunks, after random inserts and takes.
TEST(BlockMap, VisitsExactlyTheLiveBlocks) {
  BlockMap map;
  std::mt19937_64 rng(11);
  std::map<uintptr_t, uint64_t> live;
  for (int i = 0; i < 20000; ++i) {
    // Granules in a few 64 MiB regions and far apart ones.
    uintptr_t region = (rng() % 8) << 26 | (uintptr_t(0x55) << 36);
    uintptr_t start = region + ((rng() % (1u << 21)) << 5);
    if (rng() % 4 == 0 && !live.empty()) {
      auto it = live.lower_bound(start);
      if (it == live.end()) it = live.begin();
      HeapObject o;
      ASSERT_TRUE(map.take(it->first, &o));
      EXPECT_EQ(o.size, it->second);
      live.erase(it);
      continue;
    }
    uint64_t size = 1 + rng() % 5000;
    ASSERT_TRUE(map.insert(start, size, fakeSite(size)));
    live[start] = size;
  }
  std::map<uintptr_t, uint64_t> seen;
  map.forEach([&](const HeapObject &o) {
    EXPECT_EQ(o.site, fakeSite(o.size));
    seen[o.start] = o.size;
  });
  EXPECT_EQ(seen, live);
  EXPECT_EQ(map.count(), live.size());
}

TEST(BlockMap, ThreadsRecordAndRetireTheirOwnBlocks) {
  BlockMap map;
  constexpr int kThreads = 4, kBlocks = 50000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // Interleaved granules: neighbours belong to other threads.
      auto start = [&](int i) { return (uintptr_t(1) << 38) + (uintptr_t(i * kThreads + t) << 5); };
      for (int i = 0; i < kBlocks; ++i) EXPECT_TRUE(map.insert(start(i), uint64_t(t + 1), nullptr));
      HeapObject o;
      for (int i = 0; i < kBlocks; i += 2) {
        EXPECT_TRUE(map.take(start(i), &o));
        EXPECT_EQ(o.size, uint64_t(t + 1));
      }
    });
  for (auto &t : threads) t.join();
  EXPECT_EQ(map.count(), uint64_t(kThreads * kBlocks / 2));
}

// With an allocator that starts live blocks 32 bytes apart (glibc), a block
// recorded in the granule is dead when another starts there: the insert
// overwrites it without reading it (block_map.h, setSpacedAllocator).
TEST(BlockMap, ASpacedAllocatorsNewBlockReplacesTheGranulesOldOne) {
  BlockMap map;
  map.setSpacedAllocator(true);
  const uintptr_t base = uintptr_t(1) << 41;
  ASSERT_TRUE(map.insert(base, 16, fakeSite(1)));       // its free was missed
  ASSERT_TRUE(map.insert(base + 16, 32, fakeSite(2)));  // the granule's new block
  HeapObject o;
  EXPECT_FALSE(map.find(base, &o));
  ASSERT_TRUE(map.find(base + 16, &o));
  EXPECT_EQ(o.size, 32u);
  EXPECT_EQ(o.site, fakeSite(2));
  EXPECT_EQ(map.count(), 1u);
}

// Each thread remembers the chunk its last block fell in (block_map.h,
// Memo). A map built where a destroyed one was must not be served the
// destroyed map's chunk, nor a map switched to the spaced rule keep the
// thread's old setting.
TEST(BlockMap, AThreadsMemoDoesNotOutliveItsMap) {
  const uintptr_t base = uintptr_t(1) << 42;
  alignas(BlockMap) unsigned char storage[sizeof(BlockMap)];
  auto *first = new (storage) BlockMap;
  ASSERT_TRUE(first->insert(base, 16, fakeSite(1)));
  first->~BlockMap();  // its chunk's memory is released
  auto *second = new (storage) BlockMap;
  EXPECT_EQ(second->count(), 0u);
  ASSERT_TRUE(second->insert(base + 32, 16, fakeSite(2)));
  HeapObject o;
  EXPECT_FALSE(second->find(base, &o));
  ASSERT_TRUE(second->find(base + 32, &o));
  EXPECT_EQ(second->count(), 1u);
  // Not spaced: a block in the granule's other half is refused...
  EXPECT_FALSE(second->insert(base + 48, 16, fakeSite(3)));
  // ...spaced (the memo filled above still says otherwise): it replaces it.
  second->setSpacedAllocator(true);
  ASSERT_TRUE(second->insert(base + 48, 16, fakeSite(3)));
  EXPECT_FALSE(second->find(base + 32, &o));
  second->~BlockMap();
}

// Blocks of one thread walk through many pages of entries; the pages are
// marked written once each (the memo skips the mark while on the same page)
// and every block is visited.
TEST(BlockMap, SequentialBlocksAcrossPagesAreAllVisited) {
  BlockMap map;
  const uintptr_t base = uintptr_t(3) << 40;
  constexpr int kBlocks = 5000;  // about ten pages of entries
  for (int i = 0; i < kBlocks; ++i) ASSERT_TRUE(map.insert(base + uintptr_t(i) * 32, 24, nullptr));
  // Back to the first page after the memo moved on.
  HeapObject o;
  ASSERT_TRUE(map.take(base, &o));
  ASSERT_TRUE(map.insert(base, 24, nullptr));
  EXPECT_EQ(map.count(), uint64_t(kBlocks));
}

// A lane (BlockMap::Lane) records a thread's next blocks of one site as
// insert would: the same entries, found and visited, across the pages it
// spans, also where the allocator moves on to a page insert never marked.
TEST(BlockMap, ALaneRecordsBlocksAsInsertWould) {
  BlockMap map;
  map.setSpacedAllocator(true);
  const uintptr_t base = uintptr_t(6) << 40;
  BlockMap::Lane lane;
  ASSERT_TRUE(map.insert(base, 24, fakeSite(7)));
  ASSERT_TRUE(map.openLane(base, fakeSite(7), 100, &lane));
  constexpr int kBlocks = 3000;  // six pages of entries, five never marked by insert
  for (int i = 1; i < kBlocks; ++i)
    ASSERT_TRUE(BlockMap::insertInLane(lane, base + uintptr_t(i) * 32 + (i % 2) * 16, 24 + i % 7));
  EXPECT_EQ(map.count(), uint64_t(kBlocks));
  int seen = 0;
  map.forEach([&](const HeapObject &o) {
    const uintptr_t i = (o.start - base) / 32;
    EXPECT_EQ(o.start, base + i * 32 + (i % 2) * 16);
    EXPECT_EQ(o.size, i ? 24 + i % 7 : 24);
    EXPECT_EQ(o.site, fakeSite(7));
    ++seen;
  });
  EXPECT_EQ(seen, kBlocks);
  HeapObject o;
  ASSERT_TRUE(map.take(base + 1 * 32 + 16, &o));
  EXPECT_EQ(o.size, 25u);
}

// What a lane refuses, leaving the map untouched: blocks outside it, larger
// than its limit (or than an entry holds), unaligned, a closed lane, and
// every block once its map was destroyed (a new one at the same address
// must not be written through the old lane).
TEST(BlockMap, ALaneRefusesWhatInsertMustDo) {
  const uintptr_t base = uintptr_t(7) << 40;
  alignas(BlockMap) unsigned char storage[sizeof(BlockMap)];
  auto *map = new (storage) BlockMap;
  map->setSpacedAllocator(true);
  BlockMap::Lane lane;
  ASSERT_TRUE(map->insert(base, 24, fakeSite(1)));
  ASSERT_TRUE(map->openLane(base, fakeSite(1), uint64_t(1) << 40, &lane));
  EXPECT_EQ(lane.max_size, BlockMap::kMaxSize);
  EXPECT_FALSE(BlockMap::insertInLane(lane, base - 32, 24));
  EXPECT_FALSE(BlockMap::insertInLane(lane, base + lane.granules * 32, 24));
  EXPECT_TRUE(BlockMap::insertInLane(lane, base + (lane.granules - 1) * 32, 24));
  EXPECT_FALSE(BlockMap::insertInLane(lane, base + 64, BlockMap::kMaxSize + 1));
  EXPECT_FALSE(BlockMap::insertInLane(lane, base + 72, 24));
  BlockMap::Lane closed;
  EXPECT_FALSE(BlockMap::insertInLane(closed, base + 64, 24));
  EXPECT_EQ(map->count(), 2u);
  // A lane opens only where the thread inserted last (another chunk: no).
  EXPECT_FALSE(map->openLane(base + (uintptr_t(1) << 26), fakeSite(1), 100, &lane));
  ASSERT_TRUE(map->openLane(base, fakeSite(1), 100, &lane));
  map->~BlockMap();
  map = new (storage) BlockMap;
  map->setSpacedAllocator(true);
  EXPECT_FALSE(BlockMap::insertInLane(lane, base + 64, 24));
  EXPECT_EQ(map->count(), 0u);
  BlockMap unspaced;
  ASSERT_TRUE(unspaced.insert(base, 24, fakeSite(1)));
  EXPECT_FALSE(unspaced.openLane(base, fakeSite(1), 100, &lane));
  map->~BlockMap();
}

// forEach goes in address order, also across chunks created high address
// first: a live block is folded before any dead entry inside it
// (ObjectRegistry::skipsUnprofiledFree).
TEST(BlockMap, VisitsBlocksInAddressOrderAcrossChunks) {
  BlockMap map;
  const uintptr_t chunk = uintptr_t(1) << 26;
  const uintptr_t base = uintptr_t(5) << 40;
  const uintptr_t starts[] = {base + 3 * chunk + 64, base + 32, base + 2 * chunk, base + chunk - 32,
                              base + 3 * chunk};
  for (uintptr_t s : starts) ASSERT_TRUE(map.insert(s, 24, fakeSite(1)));
  std::vector<uintptr_t> seen;
  map.forEach([&](const HeapObject &o) { seen.push_back(o.start); });
  std::vector<uintptr_t> sorted(std::begin(starts), std::end(starts));
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(seen, sorted);
  EXPECT_FALSE(map.spaced());
  map.setSpacedAllocator(true);
  EXPECT_TRUE(map.spaced());
}

// What page sampling asks of the map: is a page packed with blocks that all
// pass a test (blocks of populous allocation sites)?
TEST(BlockMap, CoversAPagePackedWithBlocksThatPass) {
  BlockMap map;
  alignas(4096) static char heap[3 * 4096];
  const auto page = reinterpret_cast<uintptr_t>(heap) + 4096;
  auto *common = reinterpret_cast<StackRecord *>(uintptr_t(0x10000));
  auto *rare = reinterpret_cast<StackRecord *>(uintptr_t(0x20000));
  auto fromCommon = [&](const HeapObject &o) { return o.site == common; };
  // 48-byte chunks with 24-byte blocks, glibc-style, running in from before.
  for (uintptr_t a = page - 48 * 3 + 16; a < page + 4096; a += 48) ASSERT_TRUE(map.insert(a, 40, common));
  EXPECT_TRUE(map.covers(page, page + 4096, 48, fromCommon));
  // One block of another site on the page.
  ASSERT_TRUE(map.insert(page + 16 + 48 * 10, 40, rare));
  EXPECT_FALSE(map.covers(page, page + 4096, 48, fromCommon));
  ASSERT_TRUE(map.insert(page + 16 + 48 * 10, 40, common));
  EXPECT_TRUE(map.covers(page, page + 4096, 48, fromCommon));
  // A hole (a freed block) wider than the slack.
  HeapObject taken;
  ASSERT_TRUE(map.take(page + 16 + 48 * 20, &taken));
  ASSERT_TRUE(map.take(page + 16 + 48 * 21, &taken));
  EXPECT_FALSE(map.covers(page, page + 4096, 48, fromCommon));
  EXPECT_TRUE(map.covers(page, page + 48 * 20, 48, fromCommon));
  // A block of another site running into the range from before it.
  ASSERT_TRUE(map.take(page - 48 + 16, &taken));
  ASSERT_TRUE(map.take(page - 48 * 2 + 16, &taken));
  EXPECT_TRUE(map.covers(page, page + 48 * 20, 48, fromCommon));
  ASSERT_TRUE(map.insert(page - 48 * 3 + 16, 136, rare));  // ends 8 bytes into the page
  EXPECT_FALSE(map.covers(page, page + 48 * 20, 48, fromCommon));
}
