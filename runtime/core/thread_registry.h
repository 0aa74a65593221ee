// Every thread that runs instrumented code or is created through
// pthread_create gets a ThreadState with a dense index (0 = first thread
// seen, normally main). Indices are never reused and have no upper limit. A
// thread reaches its own state through one TLS pointer, with no lookup;
// records outlive their threads so the report can read them, but only the
// last NUMAPERF_THREAD_RECORDS finished threads keep a record of their own:
// older finished records are folded into per-start-routine totals
// (FoldedThreads) and their memory is reused, so thread churn runs in
// bounded memory (docs/threads.md, "Thread churn").
#pragma once

#include <atomic>
#include <cstdint>

#include "common/spin_lock.h"
#include "core/block_map.h"
#include "core/deferred_forgets.h"
#include "core/fast_page.h"
#include "core/overhead_meter.h"
#include "core/page_sampling.h"
#include "core/range_repeats.h"
#include "core/shared_page_cache.h"
#include "core/stack_capture.h"

namespace numaperf {

struct StackRecord;

struct ThreadState {
  uint32_t index = 0;
  uint32_t owner_tag = 0;      // index + 1: the value stored in the page map
  void *start_routine = nullptr;  // nullptr for main / foreign threads
  int os_tid = 0;
  uintptr_t stack_high = 0;    // frames above this are not walked
  uintptr_t stack_low = 0;     // the thread's own stack starts here
  uint64_t start_ns = 0;
  std::atomic<uint64_t> end_ns{0};  // 0 while alive
  // Written only by the owning thread; read (racily, for the report) by
  // others: plain counters keep the hot path free of atomics.
  uint64_t accesses = 0;
  uint64_t remote_accesses = 0;
  SharedPageCache page_cache;  // counts for shared pages (shared_page_cache.h)
  // Counts for the private page the thread touched last (PageEntry::
  // owner_reads/owner_writes), made inline by instrumented code or by hooks,
  // added to the page when the thread moves on (fast_page.h).
  FastPageState fast;
  // Accesses to pages sampled away not yet added to one (page_sampling.h).
  SampledAwayTally away;
  // Range hook calls repeated and not counted yet (range_repeats.h).
  RangeRepeats repeats;
  // Pages it freed blocks on while private to it, forgotten later
  // (deferred_forgets.h).
  DeferredForgets deferred_forgets;
  OverheadMeter meter;  // sampled time in hooks (overhead_meter.h)
  // Objects allocated in a row from one site, not yet added to its record (up
  // to 256 at a time):
  // threads allocating from the same site would otherwise all write one
  // counter (allocation_tracking.cpp).
  StackRecord *alloc_site = nullptr;
  uint64_t alloc_site_objects = 0;
  // The frame chain of an allocation of chain_site's, from malloc's own
  // frame up (stack_capture.h): a later call meeting the same chain has the
  // same stack. With the block map's lane for alloc_site, open only while
  // chain_site is alloc_site, such a call is recorded in a few instructions
  // (allocation_tracking.h, recordRepeatedAllocation).
  StackRecord *chain_site = nullptr;  // nullptr: no chain
  BlockMap::Lane alloc_lane;
  FrameChain alloc_chain;
  // Synchronisation (interception/sync_interceptors.cpp), owner-written too.
  uint64_t lock_contentions = 0;  // mutex/rwlock/spin/OpenMP lock found busy
  uint64_t trylock_failures = 0;  // program's own trylock calls that failed
  uint64_t cond_waits = 0;        // every condition wait
  uint64_t barrier_waits = 0;     // every pthread / OpenMP barrier wait
  uint64_t sem_waits = 0;         // semaphore waits that had to block
  uint64_t joins = 0;             // pthread_join calls
  // Kernel-observed CPU migrations (interception/thread_counters.cpp): the
  // scheduler's count when the thread started (-1: none taken), or the perf
  // fd counting them where the kernel does not publish that count; then the
  // final count (-1: not measured).
  std::atomic<int64_t> migration_base{-1};
  std::atomic<int> migration_fd{-1};
  std::atomic<int64_t> observed_migrations{-1};
  bool retired = false;  // owner-written: exit already counted
};

// The finished threads of one start routine whose records were folded.
struct FoldedThreads {
  void *start_routine = nullptr;  // nullptr: threads not created by pthread_create
  uint64_t threads = 0;
  uint64_t accesses = 0, remote_accesses = 0;
  uint64_t lock_contentions = 0, trylock_failures = 0, cond_waits = 0;
  uint64_t barrier_waits = 0, sem_waits = 0, joins = 0;
  uint64_t observed_migrations = 0, measured_threads = 0;  // threads whose counter was read
  uint64_t first_start_ns = 0, last_end_ns = 0;
  FoldedThreads *next = nullptr;
};

// Grows whenever the thread waited in an intercepted call (a busy lock,
// condition, barrier, semaphore, join): time measured across such a call is
// not the thread's own work (overhead_meter.h).
inline uint64_t waitEpoch(const ThreadState &t) {
  return t.lock_contentions + t.cond_waits + t.barrier_waits + t.sem_waits + t.joins;
}

class ThreadRegistry {
 public:
  // Creates the calling thread's record (idempotent) and returns it.
  // Returns nullptr when memory for the record cannot be had.
  // [stack_low, stack_high): the thread's stack, 0 for both when unknown.
  ThreadState *registerCurrentThread(void *start_routine, uintptr_t stack_high,
                                     uintptr_t stack_low = 0);
  // Marks the calling thread as finished (and flushes its buffered counts).
  // A thread that goes while the process runs on also forgets the pages it
  // deferred (deferred_forgets.h); at the end of the process (the report
  // follows) they keep their first toucher and counts.
  void markCurrentThreadExited(bool process_end = false);
  // In a forked child: every other thread stayed behind in the parent.
  void markOtherThreadsExited();
  // Around fork.
  void lockAll() {
    grow_lock_.lock();
    fold_lock_.lock();
    alive_lock_.lock();
  }
  void unlockAll() {
    alive_lock_.unlock();
    fold_lock_.unlock();
    grow_lock_.unlock();
  }

  // Finished threads that keep their own record (0: all of them, never fold).
  void setFinishedRecordCap(uint32_t cap);
  // From here on nothing is folded, so the report reads a stable set of
  // records and totals (called once the report starts).
  void stopFolding();
  uint64_t foldedThreads() const { return folded_count_.load(std::memory_order_acquire); }
  // Visits the per-routine totals of folded threads (after stopFolding()).
  template <typename F>
  void forEachFolded(F &&f) const {
    for (const FoldedThreads *g = folded_; g; g = g->next) f(*g);
  }
  // Time during which two or more registered threads were alive, up to `now`
  // (the parallel phase of docs/threads.md, kept exactly as threads come and
  // go because folded threads leave no lifetime behind).
  uint64_t parallelNanos(uint64_t now);
  static ThreadState *current() { return tls_self_; }

  uint32_t threadCount() const { return next_index_.load(std::memory_order_acquire); }
  // nullptr for an index whose record is not published yet.
  ThreadState *byIndex(uint32_t index) const;
  // Visits published records in index order. Safe while threads are added.
  template <typename F>
  void forEach(F &&f) const {
    uint32_t n = threadCount();
    for (uint32_t i = 0; i < n; ++i)
      if (ThreadState *t = byIndex(i)) f(*t);
  }

 private:
  static constexpr uint32_t kChunkSlots = 1024;
  struct Chunk {
    std::atomic<ThreadState *> slots[kChunkSlots];
  };
  void publish(ThreadState *t);
  void aliveChange(int delta, uint64_t now);
  void retire(ThreadState *t);  // under fold_lock_
  void fold(ThreadState *t);    // under fold_lock_

  static __thread ThreadState *tls_self_ __attribute__((tls_model("initial-exec")));
  std::atomic<uint32_t> next_index_{0};
  // Directory of chunks; replaced by a larger copy when full (old copies are
  // kept, readers may still hold them).
  std::atomic<std::atomic<Chunk *> *> directory_{nullptr};
  std::atomic<uint32_t> directory_capacity_{0};
  SpinLock grow_lock_;

  // Folding (under fold_lock_): a ring of the indices of finished threads
  // that still have their record, oldest first.
  SpinLock fold_lock_;
  uint32_t finished_cap_ = 0;
  uint32_t *finished_ = nullptr;  // finished_cap_ + 1 entries
  uint32_t finished_head_ = 0, finished_count_ = 0;
  bool folding_stopped_ = false;
  FoldedThreads *folded_ = nullptr;
  std::atomic<uint64_t> folded_count_{0};

  // Parallel phase (under alive_lock_).
  SpinLock alive_lock_;
  uint32_t alive_ = 0;
  uint64_t alive_since_ns_ = 0;
  uint64_t parallel_ns_ = 0;
};

ThreadRegistry &threadRegistry();
uint64_t monotonicNanos();

// Adds the thread's buffered counts (private page, shared-page cache) to
// shadow memory. `release`: the thread is exiting, free its cache.
void flushThreadCounts(ThreadState &t, bool release = false);
// Only the counts the thread buffers for the pages of [start, end) (every
// count when the range spans many pages): what must reach shadow memory
// before the object there is folded.
void flushThreadCountsIn(ThreadState &t, uintptr_t start, uintptr_t end);
// Adds the objects the thread allocated from its last allocation site to the
// site's record (at thread exit and when the report starts).
void flushAllocationCounts(ThreadState &t);

}  // namespace numaperf
