#include "core/stack_store.h"

#include "common/hot_path.h"
#include "common/internal_alloc.h"

#include <cstring>

namespace numaperf {

StackStore &stackStore() {
  static StackStore *store = internalNew<StackStore>();
  return *store;
}

// Every allocation of a site a thread keeps allocating at (also with
// profiling off): on the interceptors' pages (hot_path.h).
NUMAPERF_HOT_PATH void StackRecord::noteAllocations(uint64_t n, uint64_t size) {
  if (n) instances.fetch_add(n, std::memory_order_relaxed);
  uint64_t seen = max_size.load(std::memory_order_relaxed);
  while (size > seen && !max_size.compare_exchange_weak(seen, size)) {
  }
}

namespace {

uint64_t hashFrames(const uintptr_t *frames, uint32_t depth) {
  uint64_t h = 1469598103934665603ull ^ depth;  // FNV-1a over the words
  for (uint32_t i = 0; i < depth; ++i) {
    h ^= frames[i];
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

bool sameStack(const StackRecord *r, uint64_t hash, const uintptr_t *frames,
               uint32_t depth) {
  return r->hash == hash && r->matches(frames, depth);
}

}  // namespace

StackRecord *StackStore::intern(const uintptr_t *frames, uint32_t depth) {
  uint64_t hash = hashFrames(frames, depth);
  std::atomic<StackRecord *> &bucket = buckets_[hash % kBuckets];
  StackRecord *head = bucket.load(std::memory_order_acquire);
  for (StackRecord *r = head; r; r = r->next_in_bucket)
    if (sameStack(r, hash, frames, depth)) return r;

  size_t bytes = sizeof(StackRecord) + (depth ? depth - 1 : 0) * sizeof(uintptr_t);
  void *mem = internalAlloc(bytes);
  if (!mem) return nullptr;
  auto *rec = new (mem) StackRecord();
  rec->hash = hash;
  rec->depth = depth;
  memcpy(rec->frames, frames, depth * sizeof(uintptr_t));
  for (;;) {
    rec->next_in_bucket = head;
    if (bucket.compare_exchange_weak(head, rec, std::memory_order_acq_rel)) break;
    // Someone else inserted: it may be the same stack.
    for (StackRecord *r = head; r && r != rec->next_in_bucket; r = r->next_in_bucket)
      if (sameStack(r, hash, frames, depth)) {
        internalFree(mem, bytes);
        return r;
      }
  }
  rec->id = count_.fetch_add(1, std::memory_order_relaxed);
  StackRecord *all = all_.load(std::memory_order_relaxed);
  do {
    rec->next_in_store = all;
  } while (!all_.compare_exchange_weak(all, rec, std::memory_order_acq_rel));
  return rec;
}

}  // namespace numaperf
