#include "core/object_registry.h"

#include "common/internal_alloc.h"
#include "core/object_fold.h"
#include "core/stack_store.h"

#include <cstring>

namespace numaperf {

ObjectRegistry &objectRegistry() {
  static ObjectRegistry *registry = internalNew<ObjectRegistry>();
  return *registry;
}

namespace {

uint64_t bucketOf(uintptr_t start, uint64_t count) {
  uint64_t h = (start >> 4) * 0x9E3779B97F4A7C15ull;
  return (h >> 20) & (count - 1);
}

char *copyString(const char *s) {
  if (!s) return nullptr;
  size_t n = strlen(s) + 1;
  auto *copy = static_cast<char *>(internalAlloc(n));
  if (copy) memcpy(copy, s, n);
  return copy;
}

}  // namespace

void ObjectRegistry::grow(Shard &s) {
  uint64_t count = s.bucket_count ? s.bucket_count * 2 : 256;
  auto **buckets = static_cast<HeapObject **>(internalAlloc(count * sizeof(HeapObject *)));
  if (!buckets) return;  // keep the old table: longer chains, still correct
  for (uint64_t i = 0; i < s.bucket_count; ++i) {
    for (HeapObject *o = s.buckets[i]; o;) {
      HeapObject *next = o->next;
      uint64_t b = bucketOf(o->start, count);
      o->next = buckets[b];
      buckets[b] = o;
      o = next;
    }
  }
  if (s.buckets) internalFree(s.buckets, s.bucket_count * sizeof(HeapObject *));
  s.buckets = buckets;
  s.bucket_count = count;
}

void ObjectRegistry::addHeap(uintptr_t start, uint64_t size, StackRecord *site) {
  HeapObject *o = internalNew<HeapObject>();
  if (!o) return;
  o->start = start;
  o->size = size;
  o->site = site;
  Shard &s = shards_[shardOf(start)];
  SpinLockGuard guard(s.lock);
  if (s.size >= s.bucket_count) grow(s);
  if (!s.buckets) {
    internalDelete(o);
    return;
  }
  uint64_t b = bucketOf(start, s.bucket_count);
  o->next = s.buckets[b];
  s.buckets[b] = o;
  ++s.size;
}

bool ObjectRegistry::removeHeap(uintptr_t start, bool forget_pages) {
  Shard &s = shards_[shardOf(start)];
  HeapObject *found = nullptr;
  {
    SpinLockGuard guard(s.lock);
    if (!s.buckets) return false;
    for (HeapObject **link = &s.buckets[bucketOf(start, s.bucket_count)]; *link;
         link = &(*link)->next) {
      if ((*link)->start == start) {
        found = *link;
        *link = found->next;
        --s.size;
        break;
      }
    }
  }
  if (!found) return false;
  fold(*found, forget_pages);
  internalDelete(found);
  return true;
}

uint64_t ObjectRegistry::heapSize(uintptr_t start) {
  Shard &s = shards_[shardOf(start)];
  SpinLockGuard guard(s.lock);
  if (!s.buckets) return 0;
  for (HeapObject *o = s.buckets[bucketOf(start, s.bucket_count)]; o; o = o->next)
    if (o->start == start) return o->size;
  return 0;
}

namespace {

void foldRange(uintptr_t start, uint64_t size, bool forget_pages, ProfileAccumulator *into) {
  ObjectProfile instance;
  if (takeObjectProfile(start, start + size, forget_pages, &instance) && into)
    into->add(instance);
}

}  // namespace

void ObjectRegistry::fold(HeapObject &o, bool forget_pages) {
  foldRange(o.start, o.size, forget_pages, o.site ? &o.site->profile : nullptr);
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
}

void ObjectRegistry::removeGlobal(uintptr_t start) {
  SpinLockGuard guard(globals_lock_);
  for (GlobalObject *g = globals_.load(std::memory_order_relaxed); g; g = g->next) {
    if (g->start != start || !g->live) continue;
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
  for (Shard &s : shards_) {
    SpinLockGuard guard(s.lock);
    for (uint64_t i = 0; i < s.bucket_count; ++i)
      for (HeapObject *o = s.buckets[i]; o; o = o->next) fold(*o, false);
  }
  SpinLockGuard guard(globals_lock_);
  for (GlobalObject *g = globals_.load(std::memory_order_relaxed); g; g = g->next)
    if (g->live) foldRange(g->start, g->size, false, &g->profile);
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
  uint64_t n = 0;
  for (const Shard &s : shards_) n += s.size;
  return n;
}

}  // namespace numaperf
