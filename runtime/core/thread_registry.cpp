#include "core/thread_registry.h"

#include "common/hot_path.h"
#include "common/internal_alloc.h"
#include "core/fast_page.h"
#include "core/shadow_memory.h"
#include "core/shared_page_cache.h"
#include "core/stack_store.h"

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

void flushThreadCounts(ThreadState &t, bool release) {
  flushRangeRepeats(t);  // first: counting them adds to what follows
  flushSampledAway(t.away);
  flushThreadPrivateCounts(t);
  flushSharedPageCache(t.page_cache, t.owner_tag, release);
}

void flushThreadCountsIn(ThreadState &t, uintptr_t start, uintptr_t end) {
  // A block of a few pages has its pages looked up one by one; beyond
  // that, flushing the whole cache (up to 512 slots) is cheaper.
  constexpr uintptr_t kPagesLookedUp = 8;
  // While no hook has counted anything (profiling not on yet) there is
  // nothing to flush, and looking would read a shadow entry per free.
  if (end <= start || !shadowMemory().anyClaimed()) return;
  // Whole pages: folding the block may forget a page it shares with a
  // neighbour, whose pending repeats must be counted before, as they would
  // have been without waiting.
  flushRangeRepeats(t, start & ~(kPageSize - 1), (end + kPageSize - 1) & ~(kPageSize - 1));
  const uintptr_t first = start >> kPageShift, last = (end - 1) >> kPageShift;
  if (last - first >= kPagesLookedUp) {
    flushThreadCounts(t);
    return;
  }
  ShadowMemory &shadow = shadowMemory();
  for (uintptr_t page = first; page <= last; ++page) {
    PageEntry *e = shadow.entryFor(page << kPageShift);
    if (!e) continue;
    if (t.away.last == e) flushSampledAway(t.away);
    for (unsigned way = 0; way < kFastPageWays; ++way)
      if (t.fast.entry[way] == e) flushFastWay(t, way);
    if (PageDetail *d = e->detail.load(std::memory_order_acquire))
      flushSharedPageSlot(t.page_cache, t.owner_tag, d);
  }
}

NUMAPERF_HOT_PATH void flushAllocationCounts(ThreadState &t) {
  if (StackRecord *site = t.alloc_site) {
    site->noteAllocations(t.alloc_site_objects, 0);
    t.alloc_site_objects = 0;
  }
}

ThreadRegistry &threadRegistry() {
  static ThreadRegistry *registry = internalNew<ThreadRegistry>();
  return *registry;
}

ThreadState *ThreadRegistry::registerCurrentThread(void *start_routine,
                                                   uintptr_t stack_high,
                                                   uintptr_t stack_low) {
  if (tls_self_) return tls_self_;
  ThreadState *t = internalNew<ThreadState>();
  if (!t) return nullptr;
  t->index = next_index_.fetch_add(1, std::memory_order_acq_rel);
  t->owner_tag = t->index + 1;
  t->away.seed(0x9e3779b97f4a7c15ull * t->owner_tag);
  t->start_routine = start_routine;
  t->os_tid = static_cast<int>(syscall(SYS_gettid));
  t->stack_high = stack_high;
  t->stack_low = stack_low;
  t->start_ns = monotonicNanos();
  publish(t);
  tls_self_ = t;
  bindFastPage(*t);
  aliveChange(+1, t->start_ns);
  return t;
}

void ThreadRegistry::aliveChange(int delta, uint64_t now) {
  SpinLockGuard guard(alive_lock_);
  if (alive_ >= 2 && now > alive_since_ns_) parallel_ns_ += now - alive_since_ns_;
  alive_since_ns_ = now;
  if (delta < 0 && alive_ == 0) return;  // a thread registered before a fork's reset
  alive_ += delta;
}

uint64_t ThreadRegistry::parallelNanos(uint64_t now) {
  SpinLockGuard guard(alive_lock_);
  uint64_t open = alive_ >= 2 && now > alive_since_ns_ ? now - alive_since_ns_ : 0;
  return parallel_ns_ + open;
}

void ThreadRegistry::setFinishedRecordCap(uint32_t cap) {
  SpinLockGuard guard(fold_lock_);
  if (finished_ || cap == 0) return;  // set once, at start-up
  finished_ = static_cast<uint32_t *>(internalAlloc(sizeof(uint32_t) * (size_t(cap) + 1)));
  if (finished_) finished_cap_ = cap;
}

void ThreadRegistry::stopFolding() {
  SpinLockGuard guard(fold_lock_);  // waits for a fold in progress
  folding_stopped_ = true;
}

void ThreadRegistry::retire(ThreadState *t) {
  if (!finished_cap_ || folding_stopped_ || t->index == 0) return;  // main keeps its record
  if (finished_count_ == finished_cap_) {
    // The oldest finished thread ended cap exits ago: it runs no more code
    // that could reach its record through TLS.
    uint32_t oldest = finished_[finished_head_];
    finished_head_ = (finished_head_ + 1) % (finished_cap_ + 1);
    --finished_count_;
    if (ThreadState *old = byIndex(oldest)) fold(old);
  }
  finished_[(finished_head_ + finished_count_) % (finished_cap_ + 1)] = t->index;
  ++finished_count_;
}

void ThreadRegistry::fold(ThreadState *t) {
  FoldedThreads *g = folded_;
  while (g && g->start_routine != t->start_routine) g = g->next;
  if (!g) {
    g = internalNew<FoldedThreads>();
    if (!g) return;  // the record stays
    g->start_routine = t->start_routine;
    g->first_start_ns = t->start_ns;
    g->next = folded_;
    folded_ = g;
  }
  ++g->threads;
  g->accesses += t->accesses;
  g->remote_accesses += t->remote_accesses;
  g->lock_contentions += t->lock_contentions;
  g->trylock_failures += t->trylock_failures;
  g->cond_waits += t->cond_waits;
  g->barrier_waits += t->barrier_waits;
  g->sem_waits += t->sem_waits;
  g->joins += t->joins;
  int64_t m = t->observed_migrations.load(std::memory_order_acquire);
  if (m >= 0) {
    g->observed_migrations += uint64_t(m);
    ++g->measured_threads;
  }
  uint64_t end = t->end_ns.load(std::memory_order_acquire);
  if (t->start_ns < g->first_start_ns) g->first_start_ns = t->start_ns;
  if (end > g->last_end_ns) g->last_end_ns = end;
  std::atomic<Chunk *> *dir = directory_.load(std::memory_order_acquire);
  dir[t->index / kChunkSlots].load(std::memory_order_acquire)
      ->slots[t->index % kChunkSlots]
      .store(nullptr, std::memory_order_release);
  folded_count_.fetch_add(1, std::memory_order_acq_rel);
  internalDelete(t);  // the next thread's record reuses the memory
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
  SpinLockGuard guard(alive_lock_);
  if (alive_ >= 2 && now > alive_since_ns_) parallel_ns_ += now - alive_since_ns_;
  alive_since_ns_ = now;
  alive_ = tls_self_ && !tls_self_->retired ? 1 : 0;
}

void ThreadRegistry::markCurrentThreadExited(bool process_end) {
  ThreadState *t = tls_self_;
  if (!t) return;
  if (!process_end) forgetDeferredPages(*t);  // its arena may go to the next new thread
  flushThreadCounts(*t, true);
  flushAllocationCounts(*t);
  unbindFastPage();  // code it still runs counts through hooks
  retireOverheadMeter(t->meter);
  uint64_t now = monotonicNanos();
  t->end_ns.store(now, std::memory_order_release);
  if (t->retired) return;  // pthread_exit, then the trampoline: counted once
  t->retired = true;
  aliveChange(-1, now);
  SpinLockGuard guard(fold_lock_);
  retire(t);
}

}  // namespace numaperf
