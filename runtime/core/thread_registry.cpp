#include "core/thread_registry.h"

#include "common/internal_alloc.h"

#include <ctime>
#include <unistd.h>
#include <sys/syscall.h>

namespace numaperf {

__thread ThreadState *ThreadRegistry::tls_self_ = nullptr;

uint64_t monotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void flushThreadPrivateCounts(ThreadState &t) {
  if (PageEntry *e = t.private_page) {
    // Only the owner adds to these counts: a plain read-modify-write will do.
    if (t.private_counts[0])
      e->owner_reads.store(e->owner_reads.load(std::memory_order_relaxed) + t.private_counts[0],
                           std::memory_order_relaxed);
    if (t.private_counts[1])
      e->owner_writes.store(e->owner_writes.load(std::memory_order_relaxed) + t.private_counts[1],
                            std::memory_order_relaxed);
    t.private_page = nullptr;
    t.private_counts[0] = t.private_counts[1] = 0;
  }
}

void flushThreadCounts(ThreadState &t, bool release) {
  flushThreadPrivateCounts(t);
  flushSharedPageCache(t.page_cache, t.owner_tag, release);
}

ThreadRegistry &threadRegistry() {
  static ThreadRegistry *registry = internalNew<ThreadRegistry>();
  return *registry;
}

ThreadState *ThreadRegistry::registerCurrentThread(void *start_routine,
                                                   uintptr_t stack_high) {
  if (tls_self_) return tls_self_;
  ThreadState *t = internalNew<ThreadState>();
  if (!t) return nullptr;
  t->index = next_index_.fetch_add(1, std::memory_order_acq_rel);
  t->owner_tag = t->index + 1;
  t->start_routine = start_routine;
  t->os_tid = static_cast<int>(syscall(SYS_gettid));
  t->stack_high = stack_high;
  t->start_ns = monotonicNanos();
  publish(t);
  tls_self_ = t;
  return t;
}

void ThreadRegistry::publish(ThreadState *t) {
  uint32_t chunk = t->index / kChunkSlots;
  {
    SpinLockGuard guard(grow_lock_);
    uint32_t cap = directory_capacity_.load(std::memory_order_relaxed);
    std::atomic<Chunk *> *dir = directory_.load(std::memory_order_relaxed);
    if (chunk >= cap) {
      uint32_t new_cap = cap ? cap * 2 : 64;
      while (new_cap <= chunk) new_cap *= 2;
      auto *bigger = static_cast<std::atomic<Chunk *> *>(
          internalAlloc(sizeof(std::atomic<Chunk *>) * new_cap));
      if (!bigger) return;  // record stays reachable through TLS only
      for (uint32_t i = 0; i < cap; ++i)
        bigger[i].store(dir[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
      directory_.store(bigger, std::memory_order_release);
      directory_capacity_.store(new_cap, std::memory_order_release);
      dir = bigger;
    }
    if (!dir[chunk].load(std::memory_order_relaxed)) {
      Chunk *c = internalNew<Chunk>();
      if (!c) return;
      dir[chunk].store(c, std::memory_order_release);
    }
  }
  std::atomic<Chunk *> *dir = directory_.load(std::memory_order_acquire);
  dir[chunk].load(std::memory_order_acquire)
      ->slots[t->index % kChunkSlots]
      .store(t, std::memory_order_release);
}

ThreadState *ThreadRegistry::byIndex(uint32_t index) const {
  uint32_t chunk = index / kChunkSlots;
  // Capacity is published after the directory, so a reader that sees the
  // capacity also sees a directory at least that large.
  if (chunk >= directory_capacity_.load(std::memory_order_acquire)) return nullptr;
  std::atomic<Chunk *> *dir = directory_.load(std::memory_order_acquire);
  Chunk *c = dir[chunk].load(std::memory_order_acquire);
  return c ? c->slots[index % kChunkSlots].load(std::memory_order_acquire) : nullptr;
}

void ThreadRegistry::markOtherThreadsExited() {
  uint64_t now = monotonicNanos();
  forEach([&](ThreadState &t) {
    uint64_t expected = 0;
    if (&t != tls_self_) t.end_ns.compare_exchange_strong(expected, now);
  });
}

void ThreadRegistry::markCurrentThreadExited() {
  if (!tls_self_) return;
  flushThreadCounts(*tls_self_, true);
  tls_self_->end_ns.store(monotonicNanos(), std::memory_order_release);
}

}  // namespace numaperf
