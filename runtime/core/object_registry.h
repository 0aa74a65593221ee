// The objects that accesses are attributed to: live heap blocks (small ones
// in a BlockMap, one entry per 32-byte granule; the others keyed by start
// address in open-addressing tables, sharded by a hash of the address so
// threads rarely meet on a lock; no allocation per block) and the global
// variables that instrumented modules register. When a heap block is freed or
// the program exits, the remote-access counts its bytes gathered in shadow
// memory are taken and added to its allocation site (StackRecord) or global,
// so freed objects keep their totals and reused addresses start fresh.
#pragma once

#include "common/spin_lock.h"
#include "core/block_map.h"
#include "core/object_profile.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace numaperf {

struct StackRecord;

struct GlobalObject {
  GlobalObject *next = nullptr;
  uintptr_t start = 0;
  uint64_t size = 0;
  const char *name = nullptr;  // owned by the module that registered it
  const char *file = nullptr;
  uint32_t line = 0;
  bool live = true;  // false after its module was unloaded
  ProfileAccumulator profile;
  // Copies made at unregistration, since the module's strings go away.
  char *owned_name = nullptr;
  char *owned_file = nullptr;
};

class ObjectRegistry {
 public:
  void addHeap(uintptr_t start, uint64_t size, StackRecord *site);
  // See BlockMap::setSpacedAllocator. With glibc's allocator (`spaced`) a
  // small block claims its whole chunk when its counts are taken
  // (takeObjectProfile's claim range).
  void setSpacedAllocator(bool spaced) {
    small_.setSpacedAllocator(spaced);
    glibc_chunks_ = spaced;
  }
  // Removes the block starting at `start`, folds its counts into its site and
  // returns true; false when the address was never tracked. With
  // `forget_pages`, pages lying wholly inside the block lose their first
  // toucher (see object_fold.h). `size`, when given, gets the block's size.
  // `before_fold`, when given, is called with the block's range first (the
  // caller's buffered counts for it must reach shadow memory).
  bool removeHeap(uintptr_t start, bool forget_pages, uint64_t *size = nullptr,
                  void (*before_fold)(uintptr_t start, uint64_t size) = nullptr);
  // After addHeap(start, ...) by the calling thread: opens a lane of the
  // block map (BlockMap::Lane) for the thread's next blocks of `site`, so
  // that BlockMap::insertInLane records them as addHeap would have.
  bool openHeapLane(uintptr_t start, StackRecord *site, uint64_t max_size, BlockMap::Lane *lane) {
    return small_.openLane(start, site, max_size, lane);
  }
  // Whether a block freed before anything was profiled needs no work at
  // all: it has no counts to fold, and when it is small (`usable_size`, the
  // allocator's size for it, fits the block map) its entry may stay, dead,
  // with no store into the map (a cache miss per free for a program freeing
  // a linked structure in scattered order). A dead entry is overwritten by
  // the next block starting in its granule; until then it is harmless: a
  // block that covers it later is folded before it (foldAll folds shards,
  // globals and the map in address order, the dead entry last), and a block
  // freed while profiled folds its whole range itself. So a dead entry can
  // only be given counts of memory no live block holds. False when the
  // entry must go (not a spaced allocator, a large block, or some small
  // block ever went to the shards instead of the map): removeHeap then.
  bool skipsUnprofiledFree(uint64_t usable_size) const;
  // Whether the page at `page` holds only small blocks of allocation sites
  // with at least `site_objects` objects, packed (page sampling may then
  // leave it out and estimate per site: core/page_sampling.h).
  bool packedWithPopulousSites(uintptr_t page, uint64_t site_objects) const;
  // Size of a tracked block, or 0.
  uint64_t heapSize(uintptr_t start);

  void addGlobal(uintptr_t start, uint64_t size, const char *name,
                 const char *file, uint32_t line);
  void removeGlobal(uintptr_t start);

  // Folds the counts of every live object (used at exit): the shards and
  // globals first, then the block map in address order, so that counts go
  // to a live block before any dead entry inside it (skipsUnprofiledFree).
  void foldAll();
  GlobalObject *firstGlobal() const { return globals_.load(std::memory_order_acquire); }
  uint64_t liveHeapObjects() const;
  // Around fork: hold every lock, then release them in parent and child.
  void lockAll();
  void unlockAll();

 private:
  // Blocks the BlockMap refuses (large, unaligned, colliding): a lock per
  // shard, held for a few probes, each shard in its own cache line.
  static constexpr unsigned kShards = 256;
  struct alignas(64) Shard {
    SpinLock lock;
    HeapObject *slots = nullptr;  // linear probing, load at most 1/2
    uint64_t capacity = 0;        // a power of two, or 0
    uint64_t size = 0;
  };
  static uint64_t hashOf(uintptr_t start);
  Shard &shardOf(uintptr_t start) { return shards_[hashOf(start) % kShards]; }
  // The slot holding `start`, or nullptr.
  static HeapObject *find(Shard &s, uintptr_t start);
  static bool grow(Shard &s);
  static void prefetch(Shard &s, uint64_t hash);
  void fold(const HeapObject &o, bool forget_pages) const;

  BlockMap small_;
  bool glibc_chunks_ = false;
  // Blocks small enough for the map that it refused: they are in the shards,
  // which skipsUnprofiledFree would leave there.
  std::atomic<uint64_t> small_refused_{0};
  Shard shards_[kShards];
  SpinLock globals_lock_;
  std::atomic<GlobalObject *> globals_{nullptr};
};

ObjectRegistry &objectRegistry();

}  // namespace numaperf
