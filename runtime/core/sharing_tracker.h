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

// Records one access to a shared page. `is_remote`: the thread is not the
// page's first toucher. Returns whether the access counts as a predicted
// remote access: every remote access does (as in NumaPerf, data is assumed
// not to stay cached), except on contended lines (lines whose copies writes
// have invalidated), where only misses count: the thread's first access since
// another thread's write. Repeated hits on a valid copy cause no traffic, and
// the copies that writes destroy are counted as invalidations.
bool trackSharedAccess(uint32_t tag, PageDetail *d, uintptr_t addr, uint32_t size,
                       bool is_write, bool is_remote, uintptr_t pc);

// Per-thread buffer for reads of a shared page nobody has written since it
// became shared (read-mostly data: tables, inputs): its counts stay in the
// thread until it moves to another page, so streaming over a shared array
// touches no shared counter per access. A write to the page flushes it first.
struct PageReadBuffer {
  PageDetail *page = nullptr;
  uint64_t reads = 0;
  uint32_t line_remote[kLinesPerPage] = {};
  uint64_t remote_lines = 0;  // bit i: line_remote[i] != 0
  uintptr_t pc = 0;
  uint64_t pc_count = 0;
};

// Buffers a read of `d` when it may be; false when the read needs the full
// path (the page has been written while shared).
bool bufferSharedRead(PageReadBuffer &b, uint32_t tag, PageDetail *d, uintptr_t addr,
                      bool is_remote, uintptr_t pc);
// Adds the buffered counts to their page and empties the buffer.
void flushReadBuffer(PageReadBuffer &b, uint32_t tag);

// Accesses of `tag` to the page recorded so far (0 if none).
uint64_t pageThreadAccesses(const PageDetail &d, uint32_t tag);

// Visits (tag, accesses) for every thread that used the page.
template <typename F>
void forEachPageThread(const PageDetail &d, F &&f) {
  for (const PageThreadUse &u : d.threads) {
    uint32_t tag = u.tag.load(std::memory_order_acquire);
    if (tag) f(tag, u.accesses.load(std::memory_order_relaxed));
  }
  if (const PageThreadOverflow *o = d.more_threads.load(std::memory_order_acquire)) {
    uint32_t n = o->count.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t tag = o->uses[i].tag.load(std::memory_order_acquire);
      if (tag) f(tag, o->uses[i].accesses.load(std::memory_order_relaxed));
    }
  }
}

}  // namespace numaperf
