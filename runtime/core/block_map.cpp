#include "core/block_map.h"

#include "common/hot_path.h"
#include "common/internal_alloc.h"

namespace numaperf {

NUMAPERF_HOT_DATA std::atomic<uint64_t> BlockMap::generation_{1};

__thread BlockMap::Memo BlockMap::memo_;

BlockMap::BlockMap() { generation_.fetch_add(1, std::memory_order_acq_rel); }

void BlockMap::setSpacedAllocator(bool spaced) {
  spaced_.store(spaced, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

NUMAPERF_HOT_PATH BlockMap::Memo *BlockMap::memoFor(uintptr_t granule, bool create) {
  const uintptr_t index = granule >> (kChunkShift - kGranuleShift);
  const uint64_t generation = generation_.load(std::memory_order_acquire);
  Memo &m = memo_;
  if (m.map == this && m.generation == generation && m.index == index) return &m;
  Chunk *chunk = chunkFor(granule, create);
  if (!chunk) return nullptr;
  m = Memo{this, generation, index, chunk, ~uint64_t(0), spaced_.load(std::memory_order_relaxed)};
  return &m;
}

BlockMap::~BlockMap() {
  generation_.fetch_add(1, std::memory_order_acq_rel);
  for (Chunk *c = chunks_.load(std::memory_order_acquire); c;) {
    Chunk *next = c->next;
    releaseAddressSpace(c, sizeof(Chunk));
    c = next;
  }
  if (auto *directory = directory_.load(std::memory_order_acquire))
    releaseAddressSpace(directory, kChunks * sizeof(*directory));
}

NUMAPERF_HOT_PATH HeapObject BlockMap::decode(uint64_t entry, uintptr_t granule) {
  HeapObject o;
  o.start = (granule << kGranuleShift) | ((entry & kHalf) ? 16 : 0);
  o.site = reinterpret_cast<StackRecord *>(((entry >> 2) & ((uint64_t(1) << kSiteBits) - 1)) << 4);
  o.size = entry >> (2 + kSiteBits);
  return o;
}

NUMAPERF_HOT_PATH BlockMap::Chunk *BlockMap::chunkFor(uintptr_t granule, bool create) {
  const uintptr_t index = granule >> (kChunkShift - kGranuleShift);
  if (index >= kChunks) return nullptr;
  auto *directory = directory_.load(std::memory_order_acquire);
  if (!directory) {
    if (!create) return nullptr;
    // Reserved address space reads as zero: every chunk pointer is null.
    auto *fresh = static_cast<std::atomic<Chunk *> *>(reserveAddressSpace(kChunks * sizeof(*directory)));
    if (!fresh) return nullptr;
    if (directory_.compare_exchange_strong(directory, fresh, std::memory_order_acq_rel)) {
      directory = fresh;
    } else {
      releaseAddressSpace(fresh, kChunks * sizeof(*directory));  // another thread was first
    }
  }
  std::atomic<Chunk *> &slot = directory[index];
  Chunk *chunk = slot.load(std::memory_order_acquire);
  if (chunk || !create) return chunk;
  auto *fresh = static_cast<Chunk *>(reserveAddressSpace(sizeof(Chunk)));
  if (!fresh) return nullptr;
  fresh->first_granule = index << (kChunkShift - kGranuleShift);
  if (!slot.compare_exchange_strong(chunk, fresh, std::memory_order_acq_rel)) {
    releaseAddressSpace(fresh, sizeof(Chunk));
    return chunk;
  }
  fresh->next = chunks_.load(std::memory_order_relaxed);
  while (!chunks_.compare_exchange_weak(fresh->next, fresh, std::memory_order_acq_rel)) {
  }
  return fresh;
}

NUMAPERF_HOT_PATH std::atomic<uint64_t> *BlockMap::entryFor(uintptr_t start) const {
  const uintptr_t granule = start >> kGranuleShift;
  const uintptr_t index = granule >> (kChunkShift - kGranuleShift);
  auto *directory = directory_.load(std::memory_order_acquire);
  if (!directory || index >= kChunks) return nullptr;
  Chunk *chunk = directory[index].load(std::memory_order_acquire);
  return chunk ? &chunk->entries[granule & (kEntriesPerChunk - 1)] : nullptr;
}

NUMAPERF_HOT_PATH bool BlockMap::insert(uintptr_t start, uint64_t size, StackRecord *site) {
  const uint64_t v = encode(start, size, site);
  if (!v) return false;
  const uintptr_t granule = start >> kGranuleShift;
  Memo *m = memoFor(granule, true);
  if (!m) return false;
  Chunk *chunk = m->chunk;
  const uint64_t i = granule & (kEntriesPerChunk - 1);
  std::atomic<uint64_t> &e = chunk->entries[i];
  if (!m->spaced) {
    // Only the block's own malloc and free write its entry, so the one race
    // is with a live block at the granule's other half (an allocator that
    // packs blocks 16 bytes apart): refuse it.
    const uint64_t old = e.load(std::memory_order_relaxed);
    if (old && ((old ^ v) & kHalf)) return false;
  }
  e.store(v, std::memory_order_relaxed);
  // Mark the page of entries for forEach (a read, and a write once per page;
  // nothing while the thread stays on the page it marked last).
  const uint64_t page = i / kEntriesPerPage;
  if (m->marked_page != page) {
    markWritten(chunk, page);
    m->marked_page = page;
  }
  return true;
}

NUMAPERF_HOT_PATH void BlockMap::markWritten(Chunk *chunk, uint64_t page) {
  std::atomic<uint64_t> &w = chunk->written[page / 64];
  const uint64_t bit = uint64_t(1) << (page % 64);
  if (!(w.load(std::memory_order_relaxed) & bit)) w.fetch_or(bit, std::memory_order_release);
}

NUMAPERF_HOT_PATH bool BlockMap::openLane(uintptr_t start, StackRecord *site, uint64_t max_size,
                                          Lane *lane) {
  // Eight pages of entries: 128 KiB of heap, 4,096 blocks of 32 bytes.
  // Pages marked and never written cost forEach a read of zeros.
  constexpr uint64_t kLanePages = 8;
  *lane = Lane{};
  const uint64_t site_bits = encode(0, 0, site);
  const uintptr_t granule = start >> kGranuleShift;
  const uint64_t i = granule & (kEntriesPerChunk - 1), page = i / kEntriesPerPage;
  const uint64_t generation = generation_.load(std::memory_order_acquire);
  const Memo &m = memo_;
  // insert filled the memo for `start`'s chunk and marked its page.
  if (!site_bits || m.map != this || m.generation != generation || !m.spaced ||
      m.index != granule >> (kChunkShift - kGranuleShift) || m.marked_page != page)
    return false;
  const uint64_t end = page + kLanePages < kPagesPerChunk ? page + kLanePages : kPagesPerChunk;
  for (uint64_t p = page + 1; p < end; ++p) markWritten(m.chunk, p);
  lane->entries = &m.chunk->entries[page * kEntriesPerPage];
  lane->first_granule = granule - i % kEntriesPerPage;
  lane->granules = (end - page) * kEntriesPerPage;
  lane->max_size = max_size < kMaxSize ? max_size : kMaxSize;
  lane->generation = generation;
  lane->site_bits = site_bits;
  return true;
}

NUMAPERF_HOT_PATH bool BlockMap::take(uintptr_t start, HeapObject *out) {
  if (start & 15) return false;
  const uintptr_t granule = start >> kGranuleShift;
  Memo *m = memoFor(granule, false);
  if (!m) return false;
  std::atomic<uint64_t> *e = &m->chunk->entries[granule & (kEntriesPerChunk - 1)];
  // A plain load and store, no compare-and-swap: a locked instruction per
  // free would keep the program's next cache misses from overlapping this
  // one (a program freeing a linked structure runs at the speed of its
  // misses). Only this block's free writes a present entry for this start
  // (its malloc is done, and no other block can be given the granule before
  // the free reaches the allocator); an insert racing for the granule's
  // other half sees the entry and is refused, or sees it gone.
  const uint64_t old = e->load(std::memory_order_relaxed);
  if (!old || (old & kHalf) != ((start & 16) ? kHalf : 0)) return false;
  e->store(0, std::memory_order_relaxed);
  *out = decode(old, start >> kGranuleShift);
  return true;
}

bool BlockMap::find(uintptr_t start, HeapObject *out) const {
  if (start & 15) return false;
  std::atomic<uint64_t> *e = entryFor(start);
  if (!e) return false;
  uint64_t v = e->load(std::memory_order_relaxed);
  if (!v || (v & kHalf) != ((start & 16) ? kHalf : 0)) return false;
  *out = decode(v, start >> kGranuleShift);
  return true;
}

uint64_t BlockMap::count() const {
  uint64_t n = 0;
  forEach([&](const HeapObject &) { ++n; });
  return n;
}

}  // namespace numaperf
