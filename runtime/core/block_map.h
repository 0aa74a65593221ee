// Start address -> (size, allocation site) of the program's small heap
// blocks, the ones malloc and new hand out millions of times. One 8-byte
// entry per 32-byte granule of the address space, in flat chunks reserved
// without committing memory, so that
//  - recording a block is one store and retiring it a load and a store,
//    with no lock, no hash and no locked instruction: every malloc and
//    free of the program comes here, also with profiling off (issue 10's
//    "within 5%");
//  - blocks allocated one after another have neighbouring entries (a cache
//    line of entries covers 256 bytes of heap) instead of one cache miss
//    each in a table of every live block;
//  - the memory it costs follows the heap: at most a quarter of the heap
//    span where blocks start, and nothing for tables that grow and rehash.
// glibc's chunks are 16-byte aligned and start at least 32 bytes apart, so
// a granule holds at most one live block. With such an allocator, blocks
// freed before anything was profiled keep their entries (dead entries, see
// ObjectRegistry::skipsUnprofiledFree): the next block starting in the
// granule overwrites one unread. Blocks that do not fit (unaligned,
// 512 KiB or larger, a granule already taken by a block at a different
// start) are refused, and ObjectRegistry keeps them in its hash table.
#pragma once

#include "core/shadow_memory.h"

#include <atomic>
#include <cstdint>

namespace numaperf {

struct StackRecord;

struct HeapObject {
  uintptr_t start = 0;  // 0: a free slot
  uint64_t size = 0;
  StackRecord *site = nullptr;  // may be nullptr when the store is full
};

class BlockMap {
 public:
  BlockMap();
  BlockMap(const BlockMap &) = delete;
  BlockMap &operator=(const BlockMap &) = delete;
  ~BlockMap();

  // Records the block; false when it does not fit (see above) or the
  // address space for its chunk cannot be reserved. A block recorded at the
  // same start before (its free was missed) is replaced.
  bool insert(uintptr_t start, uint64_t size, StackRecord *site);
  // A thread's way in for blocks of one site in a row (the allocation fast
  // path, interception/allocation_tracking.h): a few pages of entries of
  // one chunk, already marked written, and the site's bits already encoded,
  // so that insertInLane is one store. Valid while the map's generation is
  // the one it was opened in.
  struct Lane {
    std::atomic<uint64_t> *entries = nullptr;  // entries[0]: first_granule's
    uintptr_t first_granule = 0;
    uint64_t granules = 0;  // 0: closed
    uint64_t max_size = 0;  // larger blocks take insert
    uint64_t generation = 0;
    uint64_t site_bits = 0;
  };
  // Opens `lane` on the entries of `start`, a block the calling thread has
  // just inserted, and the pages of entries after it in its chunk (the
  // allocator's next blocks mostly come from there), for blocks of `site`
  // of up to `max_size` bytes. False, the lane closed, unless the allocator
  // is spaced (insert would read the entry first otherwise).
  bool openLane(uintptr_t start, StackRecord *site, uint64_t max_size, Lane *lane);
  // insert through an open lane, inline and without a call. False, doing
  // nothing, when the block is outside the lane, larger than its max_size
  // or unaligned, or the lane is stale: insert then.
  static bool insertInLane(const Lane &lane, uintptr_t start, uint64_t size);
  // Called with true when the allocator is known to start live blocks at
  // least 32 bytes apart (glibc's): a block recorded in the same granule is
  // then dead (its free was missed) and insert overwrites it without reading
  // it first. That read is a cache miss per malloc when the allocator hands
  // out recycled blocks in scattered order, and the program waits for it.
  void setSpacedAllocator(bool spaced);
  bool spaced() const { return spaced_.load(std::memory_order_relaxed); }
  // Removes the block starting at `start` into `*out`; false if absent.
  bool take(uintptr_t start, HeapObject *out);
  // The block starting at `start`, left in place; false if absent.
  bool find(uintptr_t start, HeapObject *out) const;
  // Whether the blocks recorded on [from, to), with the one running into it
  // from up to 1 KiB before, cover it with gaps of at most `slack` bytes
  // (the allocator's headers), and each satisfies pred(const HeapObject &).
  // Read racily: a heuristic for page sampling (core/page_sampling.h).
  template <typename Pred>
  bool covers(uintptr_t from, uintptr_t to, uint64_t slack, Pred pred) const;
  // Calls fn(const HeapObject &) for every recorded block, in address order
  // (so a block comes before any dead entry lying inside it: see
  // ObjectRegistry::skipsUnprofiledFree). Not a snapshot: blocks recorded or
  // taken meanwhile may be seen or not.
  template <typename Fn>
  void forEach(Fn fn) const;
  uint64_t count() const;

  static constexpr unsigned kGranuleShift = 5;
  static constexpr unsigned kSiteBits = kAddressBits - 4;  // records are 16-byte aligned
  static constexpr unsigned kSizeBits = 64 - 2 - kSiteBits;
  static constexpr uint64_t kMaxSize = (uint64_t(1) << kSizeBits) - 1;

 private:
  // One chunk per 64 MiB of address space (glibc's per-thread heaps are
  // 64 MiB): 2^21 entries in 16 MiB of address space, committed page by page,
  // then a trailer that lists the chunk and the pages of entries written, so
  // that walking the map reads only those (and sees them even if swapped out).
  static constexpr unsigned kChunkShift = 26;
  static constexpr uint64_t kEntriesPerChunk = uint64_t(1) << (kChunkShift - kGranuleShift);
  static constexpr uint64_t kEntriesPerPage = kPageSize / sizeof(uint64_t);
  static constexpr uint64_t kPagesPerChunk = kEntriesPerChunk / kEntriesPerPage;
  static constexpr uint64_t kChunks = uint64_t(1) << (kAddressBits - kChunkShift);
  struct Chunk {
    std::atomic<uint64_t> entries[kEntriesPerChunk];
    Chunk *next;         // every chunk, newest first
    uintptr_t first_granule;
    std::atomic<uint64_t> written[kPagesPerChunk / 64];  // pages of `entries`
  };

  // Per thread: the chunk its last block fell in and the last page of
  // entries it marked written. A thread's consecutive blocks mostly share
  // both; reading the directory and the written bits for each block would
  // add two pages to every malloc and free (common/hot_path.h). Valid for
  // one map and one generation (block_map.cpp), so a map created where a
  // destroyed one was is never served the old one's chunks.
  struct Memo {
    const BlockMap *map;
    uint64_t generation;
    uintptr_t index;  // of the chunk in the directory
    Chunk *chunk;
    uint64_t marked_page;  // of `chunk`, known written
    bool spaced;           // spaced_ when the memo was filled
  };
  static __thread Memo memo_ __attribute__((tls_model("initial-exec")));
  // Bumped when a map is created or destroyed or its allocator setting
  // changes: every thread's memo of an older generation is stale.
  static std::atomic<uint64_t> generation_;
  // The calling thread's memo, filled for the chunk holding `granule`;
  // nullptr when there is no such chunk (and `create` is false or fails).
  Memo *memoFor(uintptr_t granule, bool create);

  // Entry bits: 0 present, 1 the block starts 16 bytes into the granule,
  // 2.. the site's address >> 4, then the size.
  static constexpr uint64_t kPresent = 1, kHalf = 2;
  static uint64_t encode(uintptr_t start, uint64_t size, StackRecord *site) {
    const auto s = reinterpret_cast<uintptr_t>(site);
    if ((start & 15) || size > kMaxSize || (s & 15) || (s >> kAddressBits)) return 0;
    return kPresent | ((start & 16) ? kHalf : 0) | (uint64_t(s >> 4) << 2) |
           (size << (2 + kSiteBits));
  }
  static HeapObject decode(uint64_t entry, uintptr_t granule);
  Chunk *chunkFor(uintptr_t granule, bool create);
  // Marks a page of `chunk`'s entries written (for forEach).
  static void markWritten(Chunk *chunk, uint64_t page);
  std::atomic<uint64_t> *entryFor(uintptr_t start) const;

  // kChunks chunk pointers, reserved on the first insert.
  std::atomic<std::atomic<Chunk *> *> directory_{nullptr};
  std::atomic<Chunk *> chunks_{nullptr};
  std::atomic<bool> spaced_{false};  // set once at start-up, read racily
};

__attribute__((always_inline)) inline bool BlockMap::insertInLane(const Lane &lane, uintptr_t start,
                                                                  uint64_t size) {
  const uint64_t i = (start >> kGranuleShift) - lane.first_granule;
  if (i >= lane.granules || size > lane.max_size || (start & 15) ||
      lane.generation != generation_.load(std::memory_order_acquire))
    return false;
  lane.entries[i].store(lane.site_bits | ((start & 16) ? kHalf : 0) | (size << (2 + kSiteBits)),
                        std::memory_order_relaxed);
  return true;
}

template <typename Pred>
bool BlockMap::covers(uintptr_t from, uintptr_t to, uint64_t slack, Pred pred) const {
  constexpr uintptr_t kLookBack = 1024 >> kGranuleShift;
  const uintptr_t first = from >> kGranuleShift, last = (to - 1) >> kGranuleShift;
  uintptr_t covered = from;  // bytes before this are accounted for
  for (uintptr_t g = first; g > 0 && first - g < kLookBack; --g) {
    const std::atomic<uint64_t> *e = entryFor((g - 1) << kGranuleShift);
    const uint64_t v = e ? e->load(std::memory_order_relaxed) : 0;
    if (!v) continue;
    const HeapObject o = decode(v, g - 1);
    if (o.start + o.size > from) {
      if (!pred(o)) return false;
      covered = o.start + o.size;
    }
    break;
  }
  for (uintptr_t g = first; g <= last; ++g) {
    const std::atomic<uint64_t> *e = entryFor(g << kGranuleShift);
    const uint64_t v = e ? e->load(std::memory_order_relaxed) : 0;
    if (!v) continue;
    const HeapObject o = decode(v, g);
    if (o.start > covered + slack || !pred(o)) return false;
    if (o.start + o.size > covered) covered = o.start + o.size;
  }
  return covered + slack >= to;
}

template <typename Fn>
void BlockMap::forEach(Fn fn) const {
  // The chunk list is newest first; chunks are few (one per 64 MiB of heap
  // span), so each step picks the lowest chunk above the last one visited.
  uintptr_t after = 0;
  for (bool first = true;; first = false) {
    const Chunk *c = nullptr;
    for (const Chunk *k = chunks_.load(std::memory_order_acquire); k; k = k->next)
      if ((first || k->first_granule > after) && (!c || k->first_granule < c->first_granule))
        c = k;
    if (!c) return;
    after = c->first_granule;
    for (uint64_t page = 0; page < kPagesPerChunk; ++page) {
      if (!(c->written[page / 64].load(std::memory_order_relaxed) & (uint64_t(1) << (page % 64))))
        continue;
      for (uint64_t i = page * kEntriesPerPage; i < (page + 1) * kEntriesPerPage; ++i) {
        uint64_t v = c->entries[i].load(std::memory_order_relaxed);
        if (v) fn(decode(v, c->first_granule + i));
      }
    }
  }
}

}  // namespace numaperf
