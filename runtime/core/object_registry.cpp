#include "core/object_registry.h"

#include "common/hot_path.h"
#include "common/internal_alloc.h"
#include "core/object_fold.h"
#include "core/page_sampling.h"
#include "core/stack_store.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace numaperf {

// The registry, once built: every malloc and free reads this pointer, so it
// sits with the other hot data rather than behind a guard variable's page.
static NUMAPERF_HOT_DATA std::atomic<ObjectRegistry *> g_registry{nullptr};

namespace {

__attribute__((noinline)) ObjectRegistry &buildObjectRegistry() {
  static ObjectRegistry *registry = internalNew<ObjectRegistry>();
  g_registry.store(registry, std::memory_order_release);
  return *registry;
}

}  // namespace

NUMAPERF_HOT_PATH ObjectRegistry &objectRegistry() {
  if (ObjectRegistry *r = g_registry.load(std::memory_order_acquire)) return *r;
  return buildObjectRegistry();
}

namespace {

char *copyString(const char *s) {
  if (!s) return nullptr;
  size_t n = strlen(s) + 1;
  auto *copy = static_cast<char *>(internalAlloc(n));
  if (copy) memcpy(copy, s, n);
  return copy;
}

}  // namespace

// Blocks are at least 16-byte aligned and often equally spaced: mix the
// bits so that shards and slots are used evenly. The shard takes the low
// bits of the hash, the slot the high ones.
uint64_t ObjectRegistry::hashOf(uintptr_t start) {
  uint64_t h = (start >> 4) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

static uint64_t slotOf(uint64_t hash, uint64_t capacity) {
  return (hash >> 32) & (capacity - 1);
}

bool ObjectRegistry::grow(Shard &s) {
  uint64_t capacity = s.capacity ? s.capacity * 2 : 64;
  auto *slots = static_cast<HeapObject *>(internalAlloc(capacity * sizeof(HeapObject)));
  if (!slots) return false;  // keep the old table while it has room
  // Write the fresh table before probing reads it: a read first would map
  // the zero page and the next write would pay a copy-on-write fault with a
  // TLB flush on every CPU (internal_alloc.cpp populates large blocks).
  memset(static_cast<void *>(slots), 0, capacity * sizeof(HeapObject));
  for (uint64_t i = 0; i < s.capacity; ++i) {
    const HeapObject &o = s.slots[i];
    if (!o.start) continue;
    uint64_t j = slotOf(hashOf(o.start), capacity);
    while (slots[j].start) j = (j + 1) & (capacity - 1);
    slots[j] = o;
  }
  if (s.slots) internalFree(s.slots, s.capacity * sizeof(HeapObject));
  __atomic_store_n(&s.slots, slots, __ATOMIC_RELAXED);  // prefetch() reads them unlocked
  __atomic_store_n(&s.capacity, capacity, __ATOMIC_RELAXED);
  return true;
}

HeapObject *ObjectRegistry::find(Shard &s, uintptr_t start) {
  if (!s.capacity) return nullptr;
  for (uint64_t i = slotOf(hashOf(start), s.capacity);; i = (i + 1) & (s.capacity - 1)) {
    if (s.slots[i].start == start) return &s.slots[i];
    if (!s.slots[i].start) return nullptr;
  }
}

void ObjectRegistry::prefetch(Shard &s, uint64_t hash) {
  // The slot is a cache miss in large tables: start loading it before the
  // lock is taken, so the lock is held for less. Racy reads are fine here:
  // a prefetch of a stale address is harmless.
  HeapObject *slots = __atomic_load_n(&s.slots, __ATOMIC_RELAXED);
  uint64_t capacity = __atomic_load_n(&s.capacity, __ATOMIC_RELAXED);
  if (slots && capacity) __builtin_prefetch(&slots[slotOf(hash, capacity)], 1);
}

NUMAPERF_HOT_PATH void ObjectRegistry::addHeap(uintptr_t start, uint64_t size, StackRecord *site) {
  if (!start || small_.insert(start, size, site)) return;
  if (size <= BlockMap::kMaxSize && small_refused_.load(std::memory_order_relaxed) == 0)
    small_refused_.store(1, std::memory_order_relaxed);
  const uint64_t hash = hashOf(start);
  Shard &s = shards_[hash % kShards];
  prefetch(s, hash);
  SpinLockGuard guard(s.lock);
  // Load at most 1/2 keeps probes short; at 7/8 without memory, give up.
  if (2 * (s.size + 1) > s.capacity && !grow(s) && 8 * (s.size + 1) > 7 * s.capacity) return;
  uint64_t i = slotOf(hash, s.capacity);
  for (; s.slots[i].start; i = (i + 1) & (s.capacity - 1))
    if (s.slots[i].start == start) {  // a block we missed the free of
      s.slots[i] = {start, size, site};
      return;
    }
  s.slots[i] = {start, size, site};
  ++s.size;
  if (sampledSize(size)) sampledRanges().add(start, size);
}

NUMAPERF_HOT_PATH bool ObjectRegistry::skipsUnprofiledFree(uint64_t usable_size) const {
  return usable_size <= BlockMap::kMaxSize && small_.spaced() &&
         small_refused_.load(std::memory_order_relaxed) == 0;
}

NUMAPERF_HOT_PATH bool ObjectRegistry::removeHeap(uintptr_t start, bool forget_pages, uint64_t *size,
                                void (*before_fold)(uintptr_t start, uint64_t size)) {
  HeapObject found;
  if (small_.take(start, &found)) {
    if (size) *size = found.size;
    if (before_fold) before_fold(found.start, found.size);
    fold(found, forget_pages);
    return true;
  }
  const uint64_t hash = hashOf(start);
  Shard &s = shards_[hash % kShards];
  prefetch(s, hash);
  {
    SpinLockGuard guard(s.lock);
    HeapObject *o = find(s, start);
    if (!o) return false;
    found = *o;
    // Backward-shift deletion: move later entries of the probe run into
    // the hole unless that would put them before their home slot.
    const uint64_t mask = s.capacity - 1;
    uint64_t hole = uint64_t(o - s.slots);
    for (uint64_t j = (hole + 1) & mask; s.slots[j].start; j = (j + 1) & mask) {
      uint64_t home = slotOf(hashOf(s.slots[j].start), s.capacity);
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        s.slots[hole] = s.slots[j];
        hole = j;
      }
    }
    s.slots[hole] = HeapObject();
    --s.size;
  }
  if (sampledSize(found.size)) sampledRanges().remove(found.start, found.size);
  if (size) *size = found.size;
  if (before_fold) before_fold(found.start, found.size);
  fold(found, forget_pages);
  return true;
}

bool ObjectRegistry::packedWithPopulousSites(uintptr_t page, uint64_t site_objects) const {
  // glibc puts 16 bytes of header between chunks; a block's size may leave
  // up to 15 more unused.
  constexpr uint64_t kSlack = 48;
  return small_.covers(page, page + kPageSize, kSlack, [&](const HeapObject &o) {
    return o.site && o.site->instances.load(std::memory_order_relaxed) >= site_objects;
  });
}

uint64_t ObjectRegistry::heapSize(uintptr_t start) {
  HeapObject o;
  if (small_.find(start, &o)) return o.size;
  Shard &s = shardOf(start);
  SpinLockGuard guard(s.lock);
  HeapObject *in_table = find(s, start);
  return in_table ? in_table->size : 0;
}

namespace {

// Folds a range that was touched (see takeObjectProfile for the claim).
void foldTouched(uintptr_t start, uint64_t size, bool forget_pages, ProfileAccumulator *into,
                 uintptr_t claim_start = 0, uintptr_t claim_end = 0) {
  ObjectProfile instance;
  if (takeObjectProfile(start, start + size, forget_pages, &instance, claim_start, claim_end) &&
      into)
    into->add(instance);
}

void foldRange(uintptr_t start, uint64_t size, bool forget_pages, ProfileAccumulator *into) {
  if (rangeUntouched(start, start + size)) return;  // nothing to take or forget
  foldTouched(start, size, forget_pages, into);
}

}  // namespace

NUMAPERF_HOT_PATH void ObjectRegistry::fold(const HeapObject &o, bool forget_pages) const {
  if (rangeUntouched(o.start, o.start + o.size)) return;  // nothing to take or forget
  // A glibc chunk: 8 bytes of size field before the block, and its usable
  // size after it (glibc's request2size, at least 32-byte chunks), up to the
  // next chunk's size field. Computed, not asked of malloc_usable_size:
  // at exit a block whose free was missed may lie in memory since unmapped.
  uintptr_t claim_start = 0, claim_end = 0;
  if (glibc_chunks_ && o.size < BlockMap::kMaxSize) {
    const uint64_t chunk = std::max<uint64_t>(32, (o.size + 8 + 15) & ~uint64_t(15));
    claim_start = o.start - 8;
    claim_end = o.start + chunk - 8;
  }
  foldTouched(o.start, o.size, forget_pages, o.site ? &o.site->profile : nullptr, claim_start,
              claim_end);
}

void ObjectRegistry::addGlobal(uintptr_t start, uint64_t size, const char *name,
                               const char *file, uint32_t line) {
  SpinLockGuard guard(globals_lock_);
  for (GlobalObject *g = globals_.load(std::memory_order_relaxed); g; g = g->next)
    if (g->start == start && g->live) return;  // comdat globals register twice
  GlobalObject *g = internalNew<GlobalObject>();
  if (!g) return;
  g->start = start;
  g->size = size;
  g->name = name;
  g->file = file;
  g->line = line;
  g->next = globals_.load(std::memory_order_relaxed);
  globals_.store(g, std::memory_order_release);
  if (sampledSize(size)) sampledRanges().add(start, size);
}

void ObjectRegistry::removeGlobal(uintptr_t start) {
  SpinLockGuard guard(globals_lock_);
  for (GlobalObject *g = globals_.load(std::memory_order_relaxed); g; g = g->next) {
    if (g->start != start || !g->live) continue;
    if (sampledSize(g->size)) sampledRanges().remove(g->start, g->size);
    foldRange(g->start, g->size, true, &g->profile);
    g->owned_name = copyString(g->name);
    g->owned_file = copyString(g->file);
    g->name = g->owned_name;
    g->file = g->owned_file;
    g->live = false;
    return;
  }
}

void ObjectRegistry::foldAll() {
  // A run that never profiled (NUMAPERF_ACTIVE=0 throughout) would walk
  // every live block for nothing.
  if (nothingTouched()) return;
  for (Shard &s : shards_) {
    SpinLockGuard guard(s.lock);
    for (uint64_t i = 0; i < s.capacity; ++i)
      if (s.slots[i].start) fold(s.slots[i], false);
  }
  {
    SpinLockGuard guard(globals_lock_);
    for (GlobalObject *g = globals_.load(std::memory_order_relaxed); g; g = g->next)
      if (g->live) foldRange(g->start, g->size, false, &g->profile);
  }
  // Last, and in address order: dead entries (skipsUnprofiledFree) come
  // after every live object that may cover them.
  small_.forEach([this](const HeapObject &o) { fold(o, false); });
}

void ObjectRegistry::lockAll() {
  for (Shard &s : shards_) s.lock.lock();
  globals_lock_.lock();
}

void ObjectRegistry::unlockAll() {
  globals_lock_.unlock();
  for (Shard &s : shards_) s.lock.unlock();
}

uint64_t ObjectRegistry::liveHeapObjects() const {
  uint64_t n = small_.count();
  for (const Shard &s : shards_) n += s.size;
  return n;
}

}  // namespace numaperf
