// Per-thread cache of the shared pages a thread is working on.
//
// Without it every access to a page that several threads use would update
// counters in the page's PageDetail (the thread's access count, reads,
// writes, remote counts per line, sites): atomics on cache lines that all
// those threads write, so the profiler itself would create the sharing it
// measures. Instead a thread counts in its own slot for the page and adds the
// totals to the page when the slot is evicted, when the thread frees memory
// or exits, and at report time.
//
// The slot also remembers, per cache line, which of the thread's words are
// already noted in the line's word detail (valid while LineShare::epoch is
// unchanged: other threads' accesses only add to the detail). An access
// whose words are all noted needs nothing but the line's holder state: a
// re-read of a valid copy or a write to a line only this thread holds
// changes nothing, and a read that misses or a write that takes the other
// copies is one compare-and-swap on that state, without the line's lock
// (sharing_tracker.cpp). Anything else takes the lock.
#pragma once

#include "core/shadow_memory.h"

#include <cstdint>

namespace numaperf {

// Sites behind buffered remote accesses.
struct BufferedSite {
  uintptr_t pc = 0;
  uint64_t count = 0;
};

constexpr unsigned kBufferedSiteBits = 3;  // a loop body reads a page from a few places
constexpr unsigned kBufferedSites = 1u << kBufferedSiteBits;

// Sites behind the misses and invalidating writes the lock-free line path
// counts, kept for the line's own sites (LineShare::sites, under its lock):
// handed over, to the last line the instruction reached, when the slot is
// flushed or the entry (the weakest of the four) is wanted for another
// instruction.
struct BufferedLineSite {
  uintptr_t pc = 0;
  uint32_t count = 0;
  uint32_t line = 0;  // the last line `pc` reached
};
constexpr unsigned kBufferedLineSites = 4;  // one cache line

struct SharedPageSlot {
  PageDetail *page = nullptr;
  uint32_t generation = 0;  // PageDetail::generation when the slot was filled
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t reads_after_own_write = 0;  // reads since this thread's last write
  uint64_t remote_lines = 0;           // bit i: line_remote[i] != 0
  uint32_t line_remote[kLinesPerPage] = {};
  uint64_t line_remote_bound = 0;  // no line_remote[i] is above it
  BufferedSite sites[kBufferedSites];
  BufferedLineSite line_sites[kBufferedLineSites];
  // Word detail as of LineShare::epoch line_epoch[i], for the lines in
  // `known_lines` (who holds copies is read from the line's state itself).
  uint64_t known_lines = 0;
  uint64_t has_words = 0;  // the line keeps word detail
  // The line is modelled in time windows only (line_windows.h), as of the
  // thread's last modelled access to it.
  uint64_t sampled_lines = 0;
  uint32_t line_epoch[kLinesPerPage] = {};
  uint16_t noted_words[kLinesPerPage] = {};    // words whose use by this thread is noted
  uint16_t written_words[kLinesPerPage] = {};  // ... and that are marked written
};

// Enough for the pages a loop nest streams through at once (a 5-point
// stencil over rows of several pages revisits a page after ~20 others).
constexpr unsigned kSharedPageSlots = 32;
// A thread that keeps coming back to more pages than that (a matrix
// multiply reads a block of hundreds of pages of B for every row of A)
// switches to this many, when a directory of the pages such a cache would
// hold shows that it would turn most misses into hits. Threads reading at
// random over more pages still do not (a bigger array of slots would only
// add its own misses), and the number of large caches is capped.
constexpr unsigned kLargeSharedPageSlots = 512;
constexpr unsigned kMaxLargeSharedPageCaches = 64;

// A line of a shared page whose last read by this thread found a valid copy
// through the line model without a change (the words noted, the thread a
// holder): while the line's epoch stays, the thread still holds a copy and
// the slot still serves the page, the next read of those words is the same
// hit, and it is counted here without looking up the slot or the line.
// That is what a thread pays for rereading data another thread wrote long
// ago (a lambda's captures on the creator's stack or heap, a table's
// header) in a loop that takes a lock: the optimiser reloads it at every
// iteration, and each read was a full pass through the line model.
struct HeldLineRead {
  const PageDetail *page = nullptr;  // nullptr: empty
  SharedPageSlot *slot = nullptr;
  const LineShare *line = nullptr;
  uint32_t epoch = 0;  // LineShare::epoch when the words below were noted
  uint16_t words = 0;  // words whose reads are noted (all, on a line without word detail)
  uint8_t index = 0;   // of the line in the page
};
constexpr unsigned kHeldLineReads = 8;  // by line address: a loop rereads a few lines

struct SharedPageCache {
  SharedPageSlot *slots = nullptr;  // allocated on first use (sharedPageSlotCount says how many)
  // Emptied whenever `slots` changes (they point into it).
  HeldLineRead held[kHeldLineReads];
  unsigned set_mask = 0;            // two-way sets - 1
  uint8_t lru[kLargeSharedPageSlots / 2] = {};  // per two-way set: the way to replace next
  // While the cache is small: the page each slot of a direct-mapped cache
  // of the large size would hold, and this window's misses and would-be
  // hits.
  const PageDetail **large_tags = nullptr;
  uint32_t window_misses = 0;
  uint32_t window_would_hit = 0;
};

// Slots in the array `slots` (0 for nullptr).
unsigned sharedPageSlotCount(const SharedPageSlot *slots);

// Counts `repeat` accesses in a row by thread `tag` to the words `words`
// (lineWordMask) of the line at `addr` of the shared page `d`, through the
// thread's cache. `is_remote`: the thread is not the page's first toucher.
// Returns how many count as predicted remote accesses (the rule of
// trackSharedAccess in sharing_tracker.h, which this follows exactly; the
// repeats of a range hook find the copy the first access left).
uint64_t countSharedAccess(SharedPageCache &cache, uint32_t tag, PageDetail *d, uintptr_t addr,
                           uint16_t words, bool is_write, bool is_remote, uintptr_t pc,
                           uint64_t repeat = 1);

// For a range hook: counts, in one go, the elements of a strided range that
// start in the shared page `d` (at most `count`, starting at `at`; an
// element crossing two lines is one access to each, as in countRange; when
// the last one crosses into the next page, `spill` is set to its bytes
// there, an access the caller counts in that page; `lead_words`, if not 0,
// is such an access to the page's first line, counted first). When `tag` is the
// page's single user (PageDetail::sole_user), or they are reads of a page
// several threads use that was never written while shared, whole runs of
// lines at a time; otherwise line by line through the line model, as the
// per-line path would, with one slot lookup for the page. Returns how many
// elements it took (0: none fit, or no memory for the cache; the caller then
// counts line by line) and sets `accesses` to the accesses they make and
// `remote` to those predicted remote (all of them when `is_remote`, unless
// the line model finds hits on lines threads fight over).
uint64_t countRangeInSharedPage(SharedPageCache &cache, uint32_t tag, PageDetail *d, uintptr_t at,
                                uint64_t step, uint64_t count, uint64_t size, bool is_write,
                                bool is_remote, uintptr_t pc, uint16_t lead_words,
                                uint64_t *accesses, uint64_t *remote, uint64_t *spill);

// Adds every buffered count to its page. `release` also gives the slots back
// for another thread (thread exit). Only the owning thread may call this,
// except at report time (slots are never unmapped, so that race is benign).
void flushSharedPageCache(SharedPageCache &cache, uint32_t tag, bool release = false);
// Adds the counts buffered for the page `d`, if the cache holds it.
void flushSharedPageSlot(SharedPageCache &cache, uint32_t tag, const PageDetail *d);

// Around fork: the pool of released slot arrays.
void sharedPageCacheLockAll();
void sharedPageCacheUnlockAll();

}  // namespace numaperf
