// Every thread that runs instrumented code or is created through
// pthread_create gets a ThreadState with a dense index (0 = first thread
// seen, normally main). Indices are never reused and have no upper limit but
// memory. A thread reaches its own state through one TLS pointer, with no
// lookup; records outlive their threads so the report can read them.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/spin_lock.h"
#include "core/shared_page_cache.h"

namespace numaperf {

struct ThreadState {
  uint32_t index = 0;
  uint32_t owner_tag = 0;      // index + 1: the value stored in the page map
  void *start_routine = nullptr;  // nullptr for main / foreign threads
  int os_tid = 0;
  uintptr_t stack_high = 0;    // frames above this are not walked
  uint64_t start_ns = 0;
  std::atomic<uint64_t> end_ns{0};  // 0 while alive
  // Written only by the owning thread; read (racily, for the report) by
  // others: plain counters keep the hot path free of atomics.
  uint64_t accesses = 0;
  uint64_t remote_accesses = 0;
  SharedPageCache page_cache;  // counts for shared pages (shared_page_cache.h)
  // Counts for the private page the thread touched last (PageEntry::
  // owner_reads/owner_writes), added to the page when the thread moves on.
  PageEntry *private_page = nullptr;
  uint64_t private_counts[2] = {0, 0};  // [0] reads, [1] writes
  // Synchronisation (interception/sync_interceptors.cpp), owner-written too.
  uint64_t lock_contentions = 0;  // mutex/rwlock/spin/OpenMP lock found busy
  uint64_t trylock_failures = 0;  // program's own trylock calls that failed
  uint64_t cond_waits = 0;        // every condition wait
  uint64_t barrier_waits = 0;     // every pthread / OpenMP barrier wait
  uint64_t sem_waits = 0;         // semaphore waits that had to block
  uint64_t joins = 0;             // pthread_join calls
  // Kernel-observed CPU migrations (interception/thread_counters.cpp):
  // perf fd while counting, then the final count (-1: not measured).
  std::atomic<int> migration_fd{-1};
  std::atomic<int64_t> observed_migrations{-1};
};

class ThreadRegistry {
 public:
  // Creates the calling thread's record (idempotent) and returns it.
  // Returns nullptr when memory for the record cannot be had.
  ThreadState *registerCurrentThread(void *start_routine, uintptr_t stack_high);
  // Marks the calling thread as finished (and flushes its buffered counts).
  void markCurrentThreadExited();
  // In a forked child: every other thread stayed behind in the parent.
  void markOtherThreadsExited();
  // Around fork.
  void lockAll() { grow_lock_.lock(); }
  void unlockAll() { grow_lock_.unlock(); }
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

  static __thread ThreadState *tls_self_ __attribute__((tls_model("initial-exec")));
  std::atomic<uint32_t> next_index_{0};
  // Directory of chunks; replaced by a larger copy when full (old copies are
  // kept, readers may still hold them).
  std::atomic<std::atomic<Chunk *> *> directory_{nullptr};
  std::atomic<uint32_t> directory_capacity_{0};
  SpinLock grow_lock_;
};

ThreadRegistry &threadRegistry();
uint64_t monotonicNanos();

// Adds the thread's buffered counts (private page, shared-page cache) to
// shadow memory. `release`: the thread is exiting, free its cache.
void flushThreadCounts(ThreadState &t, bool release = false);
void flushThreadPrivateCounts(ThreadState &t);

}  // namespace numaperf
