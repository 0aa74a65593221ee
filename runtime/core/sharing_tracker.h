// The slow path of the access hooks, for pages that more than one thread
// uses: who uses the page and how much, reads since the last write (for
// duplication advice), the hottest access sites, and for lines written while
// shared, the copies each write invalidates (NumaPerf: a write invalidates
// every other thread's copy, and counts them all) and, past a write
// threshold, which words each thread touches (true vs false sharing).
#pragma once

#include "core/shadow_memory.h"

#include <cstdint>

namespace numaperf {

// Writes to a shared line after which word-level detail starts.
void setWordDetailThreshold(uint32_t writes);

// Records one access to a shared page, updating the page's counters at once
// (the hooks go through the thread's cache instead: shared_page_cache.h).
// `is_remote`: the thread is not the
// page's first toucher. Returns whether the access counts as a predicted
// remote access: every remote access does (as in NumaPerf, data is assumed
// not to stay cached), except on contended lines (lines whose copies writes
// have invalidated), where only misses count: the thread's first access since
// another thread's write. Repeated hits on a valid copy cause no traffic, and
// the copies that writes destroy are counted as invalidations.
bool trackSharedAccess(uint32_t tag, PageDetail *d, uintptr_t addr, uint32_t size,
                       bool is_write, bool is_remote, uintptr_t pc);

// Accesses of `tag` to the page recorded so far (0 if none).
uint64_t pageThreadAccesses(const PageDetail &d, uint32_t tag);

// Visits (tag, counts) for every thread listed on the page.
template <typename F>
void forEachPageThreadCounts(PageDetail &d, F &&f) {
  for (unsigned i = 0; i < kInlinePageThreads; ++i) {
    uint32_t tag = d.thread_tags[i].load(std::memory_order_acquire);
    if (tag) f(tag, d.threads[i].counts);
  }
  if (PageThreadOverflow *o = d.more_threads.load(std::memory_order_acquire)) {
    uint32_t n = o->count.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t tag = o->uses[i].tag.load(std::memory_order_acquire);
      if (tag) f(tag, o->uses[i].counts);
    }
  }
}

// Visits (tag, accesses) for every thread that used the page.
template <typename F>
void forEachPageThread(const PageDetail &d, F &&f) {
  forEachPageThreadCounts(const_cast<PageDetail &>(d), [&](uint32_t tag, PageThreadCounts &c) {
    f(tag, c.accesses.load(std::memory_order_relaxed));
  });
}

// The page's shared reads and writes so far (sums over its threads).
struct PageAccessTotals {
  uint64_t reads = 0, writes = 0;
};
PageAccessTotals pageAccessTotals(const PageDetail &d);

// Reads since the page's last write (all of them when it was never written
// while shared).
uint64_t pageReadsSinceWrite(const PageDetail &d);

}  // namespace numaperf
