// Shadow memory: one PageEntry per 4 KiB page of the user address space, in a
// flat table reserved with MAP_NORESERVE and committed by the kernel only
// where the program touches memory. An entry holds the page's first toucher
// (the predicted home node of the page under first-touch placement) and, once
// a second thread reaches the page, a PageDetail: per-line remote counts,
// the exact set of threads using the page with their access counts, reads
// since the last write, the hottest access sites, and per-line sharing state
// (copy holders, invalidations, word-level detail) for lines written while
// shared.
//
// The hot path reads the entry without writing it when the accessing thread
// is the first toucher and the page is private, so private data costs no
// shared-memory traffic. Everything in PageDetail is reached only for shared
// pages (see sharing_tracker.h).
#pragma once

#include "common/spin_lock.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace numaperf {

constexpr unsigned kPageShift = 12;
constexpr uintptr_t kPageSize = uintptr_t(1) << kPageShift;
constexpr unsigned kLineShift = 6;
constexpr uintptr_t kLineSize = uintptr_t(1) << kLineShift;
constexpr unsigned kLinesPerPage = kPageSize / kLineSize;
static_assert(kLinesPerPage <= 64, "per-page line sets are 64-bit masks");
constexpr unsigned kWordShift = 2;  // 4-byte words: 16 per line
constexpr unsigned kWordsPerLine = kLineSize >> kWordShift;
// Accesses up to this size count once, on the line they start in, even when
// they cross into the next one (the 1- to 8-byte hooks); wider ones count
// once per line they cover.
constexpr uint64_t kSingleAccessBytes = 8;

// The 4-byte words of its line that an access of `size` bytes at `addr`
// touches (clipped at the line's end).
inline uint16_t lineWordMask(uintptr_t addr, uint32_t size) {
  unsigned offset = unsigned(addr & (kLineSize - 1));
  unsigned end = offset + (size ? size : 1);
  if (end > kLineSize) end = kLineSize;
  unsigned first = offset >> kWordShift, last = (end - 1) >> kWordShift;
  return uint16_t(((2u << last) - 1) & ~((1u << first) - 1));
}

// bytes / step for a range's step (> 0), which is most often a power of two
// (an element size): then a shift instead of a division per page.
inline uint64_t stepsIn(uint64_t bytes, uint64_t step) {
  return (step & (step - 1)) == 0 ? bytes >> __builtin_ctzll(step) : bytes / step;
}

// How many of the `n` elements of `size` bytes at a, a + step, a + 2 step...
// start in one cache line and end in the next. Their offsets in the line
// repeat every kLineSize / gcd(step, kLineSize) elements, so at most that
// many (64) are looked at, however long the range: a vectorised loop's
// range hook covers whole pages of 16-byte elements. The period is a power
// of two: shifts, not the two divisions per page a range hook would
// otherwise pay (each dearer than the rest of the count).
inline uint64_t elementsCrossingLines(uintptr_t a, uint64_t step, uint64_t size, uint64_t n) {
  const uint64_t in_line = step & (kLineSize - 1);
  const unsigned period_shift =
      in_line ? kLineShift - unsigned(__builtin_ctzll(in_line)) : 0;  // period 64 / lowest bit
  const uint64_t period = uint64_t(1) << period_shift;
  const uint64_t full = n >> period_shift, rem = n & (period - 1);
  uint64_t per_period = 0, in_rem = 0;
  for (uint64_t j = 0; j < period && j < n; ++j) {
    const bool crosses = ((a + j * step) & (kLineSize - 1)) + size > kLineSize;
    per_period += crosses;
    if (j < rem) in_rem += crosses;
  }
  return full * per_period + in_rem;
}

#if defined(__aarch64__)
constexpr unsigned kAddressBits = 48;
#else
constexpr unsigned kAddressBits = 47;
#endif

// Which threads touched each word of a line, once the line's writes pass
// the word-detail threshold. Two distinct threads per word are enough to tell
// true sharing (a word used by several threads) from false sharing.
// Which words were written is LineShare::words_written: kept there, this is
// 128 bytes, the allocator's 128-byte class (with it, 144 bytes took 256).
// Atomics: written under the line's lock, read without it by the lock-free
// write path (which only asks whether other threads used a word).
// Word i's tags hold only while LineShare::words_seen (first_tag) and
// LineShare::words_both (other_tag) have bit i.
struct WordDetail {
  std::atomic<uint32_t> first_tag[kWordsPerLine] = {};
  std::atomic<uint32_t> other_tag[kWordsPerLine] = {};  // a second thread
};
static_assert(sizeof(WordDetail) == 128, "WordDetail must fit the 128-byte class");

struct LineSiteCount {
  uintptr_t pc = 0;
  uint64_t count = 0;
};

// LineShare::state: which threads hold a copy of the line since its last
// write, and whether a write ever invalidated copies. A thread whose tag is
// at most kMaskedHolders is bit (tag - 1) of the mask, set and cleared with
// atomic operations, so the transitions threads fighting over a line make
// at every access (a read that misses, a write that takes every copy) need
// no lock. Threads with higher tags are listed in LineShare::holders, under
// the lock; kListedHolders says the list is not empty.
constexpr unsigned kMaskedHolders = 62;
constexpr uint64_t kHolderMask = (uint64_t(1) << kMaskedHolders) - 1;
constexpr uint64_t kListedHolders = uint64_t(1) << 62;
constexpr uint64_t kContendedLine = uint64_t(1) << 63;  // a write invalidated copies
// The thread's bit in the mask, or 0 when it is listed instead.
inline uint64_t holderBit(uint32_t tag) {
  return tag - 1u < kMaskedHolders ? uint64_t(1) << (tag - 1u) : 0;
}

// Sharing state of one cache line, created when the line is written while its
// page is shared, and then kept for every access.
// What every access reads comes first, in one cache line (records are at
// least 64-byte aligned): on lines threads keep fighting over, an access is
// decided and counted there, without a miss on the word detail.
struct LineShare {
  SpinLock lock;  // the holder list, word detail, sites and `writes`
  // The time window (line_windows.h) of the line's last counted write while
  // it is modelled in windows (LineWindowTally::window, 0: none); fills the
  // bytes after the lock.
  std::atomic<uint16_t> counting_window{0};
  // Bumped (under `lock`) when the word detail is created or emptied, so a
  // thread can tell that the words it saw noted for itself still are
  // (shared_page_cache.h): other threads' accesses only add to the detail.
  std::atomic<uint32_t> epoch{0};
  std::atomic<uint64_t> state{0};      // holders and kContendedLine (above)
  std::atomic<uint64_t> invalidations{0};        // copies invalidated by writes
  std::atomic<uint64_t> invalidations_true{0};   // ... of words other threads used
  std::atomic<uint64_t> invalidations_false{0};  // ... of words only the writer used
  WordDetail *words = nullptr;  // set once (epoch published), kept until the record goes
  // With `words`: the words whose first_tag is set, those naming two
  // distinct threads (other_tag set), and those written since the word
  // detail began. Zero whenever `words` is. The tags of a word outside
  // these masks are stale: emptying the detail for the next object clears
  // only the masks, and the table's two cache lines are not touched again
  // until a thread notes a word there.
  std::atomic<uint16_t> words_seen{0};
  std::atomic<uint16_t> words_both{0};
  std::atomic<uint16_t> words_written{0};
  // kLineSampledNow / kLineWasSampled (line_windows.h): read with the
  // holder state, so it sits in the same cache line.
  std::atomic<uint16_t> sampling{0};
  uint32_t listed = 0;  // holders in `holders`, while state has kListedHolders
  uint32_t list_capacity = 0;
  uint32_t *holders = nullptr;  // tags above kMaskedHolders; inline_holders or internal memory
  uint32_t inline_holders[2] = {};
  uint64_t writes = 0;     // counted up to the word-detail threshold
  LineSiteCount sites[2];  // hottest instructions behind misses and invalidations
  // Clock (line_windows.h) when the invalidations last passed a multiple of
  // kLineWindowCheck; 0: not yet.
  std::atomic<uint64_t> window_stamp{0};
  bool holdsNone() const {
    return (state.load(std::memory_order_acquire) & (kHolderMask | kListedHolders)) == 0;
  }
};
static_assert(sizeof(LineShare) <= 128, "LineShare must fit the 128-byte class");
static_assert(offsetof(LineShare, sampling) < 64, "read with the state, in its first cache line");
static_assert(offsetof(LineShare, epoch) == 4, "counting_window fills the lock's padding");

// A thread's accesses (reads and writes) to a page, and how many of them
// were writes. The page's read and write totals are their sums: kept per
// thread, a flush adds to its own thread's counters only, never to a line
// that every thread using the page writes.
struct PageThreadCounts {
  std::atomic<uint64_t> accesses{0};
  std::atomic<uint64_t> writes{0};
};

struct PageThreadUse {
  std::atomic<uint32_t> tag{0};
  PageThreadCounts counts;
};

// Growable list of PageThreadUse beyond the inline slots (any thread count).
struct PageThreadOverflow {
  uint32_t capacity = 0;
  std::atomic<uint32_t> count{0};
  PageThreadOverflow *previous = nullptr;  // kept alive: readers may hold it
  PageThreadUse uses[1];
};

struct AccessSiteCount {
  std::atomic<uintptr_t> pc{0};
  std::atomic<uint64_t> count{0};
};

constexpr unsigned kInlinePageThreads = 4;

// A thread's counts on a page, one per cache line: its thread adds to them
// at every flush of the page (its tag is in PageDetail::thread_tags).
struct alignas(64) PageThreadCount {
  PageThreadCounts counts;
};
constexpr unsigned kPageAccessSites = 4;

// Created when a second thread reaches a page and never freed while the
// program runs (threads may hold pointers to it in their read buffers):
// when the object there goes away it is reset and stays with its page.
//
// Layout: what every access or flush reads and hardly anyone writes comes
// first, in one cache line; the counters threads add to at every flush come
// after it, and each thread's own access count has a cache line of its own,
// so the profiler does not make its threads share lines it only reads.
struct PageDetail {
  // Another thread uses the page since the last reset; while false the first
  // toucher's accesses take the fast path.
  std::atomic<bool> shared{false};
  // A thread wrote the page while it was shared: from then on its lines
  // track copy holders.
  std::atomic<bool> written_while_shared{false};
  // Bumped when the page is reset for the next object, so counts a thread
  // still buffers for the old object are dropped, not misattributed.
  std::atomic<uint32_t> generation{0};
  // The highest tag in the list (0 after a reset): a thread with a higher
  // tag is not in it, so a new thread does not scan every earlier one
  // (thread churn on one page would be quadratic).
  std::atomic<uint32_t> highest_tag{0};
  // Tags of `threads` (0: free), where findUse looks for them.
  std::atomic<uint32_t> thread_tags[kInlinePageThreads] = {};
  std::atomic<PageThreadOverflow *> more_threads{nullptr};
  // Single-user mode (below): the single user's tag, 0 none yet, kManyUsers
  // once the mode ended; the reader's tag, 0 none yet.
  std::atomic<uint32_t> sole_user{0};
  std::atomic<uint32_t> reader{0};
  // Per line: remote accesses in the low bits; in the top ones, how many of
  // the line's bytes objects folded since the count was last emptied have
  // claimed (object_fold.cpp: the objects sharing a line take all of its
  // count between them, whatever order they go in).
  alignas(64) std::atomic<uint64_t> line_remote[kLinesPerPage];
  // Added to every line's line_remote: a thread that read the whole page
  // evenly (a range over it) hands over one count, not 64 contended ones.
  // Spread into line_remote before counts are taken (spreadEvenRemote).
  std::atomic<uint64_t> line_remote_even{0};
  static constexpr unsigned kClaimedShift = 57;
  static constexpr uint64_t kRemoteCountMask = (uint64_t(1) << kClaimedShift) - 1;
  uint64_t lineRemote(unsigned i) const {
    return (line_remote[i].load(std::memory_order_relaxed) & kRemoteCountMask) +
           line_remote_even.load(std::memory_order_relaxed);
  }
  std::atomic<LineShare *> lines[kLinesPerPage];
  PageThreadCount threads[kInlinePageThreads];
  SpinLock threads_lock;
  // Reads since the last write, kept once the page is written while shared
  // (until then every read is one: see pageReadsSinceWrite).
  std::atomic<uint64_t> reads_since_write{0};
  AccessSiteCount sites[kPageAccessSites];

  // Single-user mode (sharing_tracker.cpp). From the moment the page is
  // shared until a second thread uses it, the one thread using it keeps its
  // lines' sharing state here, without LineShares or locks: the copy model
  // has nothing to decide while one thread holds every copy. The state is
  // turned into LineShares, exactly as the line model would have built it,
  // when another thread arrives. The common NUMA bug (data initialised by
  // one thread, then worked on by another) stays in this mode throughout.
  //
  // A second thread that only reads joins the mode as its reader instead of
  // ending it, for as long as the single user writes no line the reader
  // holds a copy of: until then no copy is invalidated, so the line model
  // would only note holders and words. The common case is a thread that
  // reads what a worker wrote (results checked at the end) over a whole
  // array: kept here, that costs no LineShare and word table per line. Any
  // other access (a write by the reader, a third thread, a write by the
  // single user to a line the reader holds) ends the mode, and the reader's
  // copies and words join the LineShares built then.
  // (sole_user and reader are in the first cache line, read by every access.)
  // The rest follows the counters without a line of its own: one more line
  // would take the record past the allocator's 2 KiB class, to 4 KiB.
  std::atomic<uint64_t> su_lines{0};  // lines written-while-shared state exists for
  std::atomic<uint64_t> su_words{0};  // lines whose word detail exists
  // Lines whose su_noted / su_written have every word: nothing to add.
  std::atomic<uint64_t> su_noted_full{0};
  std::atomic<uint64_t> su_written_full{0};
  // Lines the reader holds a copy of (read while the page is written while
  // shared), written by the reader only.
  std::atomic<uint64_t> reader_lines{0};
  // Written by the single user without a lock and read by the thread that
  // ends the mode (leaveSingleUser), hence atomics (relaxed loads and stores:
  // plain moves). An access the single user counts while the mode ends may
  // miss the materialised lines: at most one access per page and hand-over.
  std::atomic<uint16_t> su_writes[kLinesPerPage] = {};   // writes per line, up to word detail
  std::atomic<uint16_t> su_noted[kLinesPerPage] = {};    // words noted in the word detail
  std::atomic<uint16_t> su_written[kLinesPerPage] = {};  // ... and marked written
  std::atomic<uint16_t> reader_noted[kLinesPerPage] = {};  // words the reader read, with word detail
};
// The internal allocator's classes are powers of two: one byte more doubles
// the memory of every shared page.
static_assert(sizeof(PageDetail) <= 2048, "PageDetail must fit the 2 KiB class");
constexpr uint32_t kManyUsers = 0xffffffffu;

struct PageEntry {
  std::atomic<uint32_t> owner;  // first toucher's ThreadState::owner_tag; 0 = none
  // Remote accesses counted before the page got its detail (see
  // NUMAPERF_PAGE_DETAIL_THRESHOLD); attributed by bytes at fold time.
  std::atomic<uint32_t> early_remote;
  std::atomic<PageDetail *> detail;
  // The first toucher's own reads and writes while the page was private
  // (its accesses to a shared page count in PageDetail instead). Added from
  // a per-thread buffer when the thread moves to another page.
  std::atomic<uint64_t> owner_reads;
  std::atomic<uint64_t> owner_writes;
};
static_assert(sizeof(PageEntry) == 32, "page entries are indexed by shift");

// ThreadSanitizer keeps most of the address space for its own shadow and
// lets programs map memory only in a few ranges (none of them fits the flat
// table). Built with TSan (scripts/sanitizers.sh), the table is split into
// chunks of kChunkPages entries, reserved when a page of theirs is first
// looked up; a TSan build is for checking the runtime, not for speed.
#if defined(__SANITIZE_THREAD__)
#define NUMAPERF_SHADOW_CHUNKED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NUMAPERF_SHADOW_CHUNKED 1
#endif
#endif

class ShadowMemory {
 public:
  // Reserves the table; false when the address space cannot be reserved.
  bool init();
#ifndef NUMAPERF_SHADOW_CHUNKED
  bool ready() const { return table_ != nullptr; }

  PageEntry *entryFor(uintptr_t addr) const {
    uintptr_t page = addr >> kPageShift;
    if (__builtin_expect(page >= kPages, 0)) return nullptr;
    return table_ + page;
  }
#else
  bool ready() const { return chunks_ != nullptr; }
  // nullptr also when the chunk's address space cannot be reserved.
  PageEntry *entryFor(uintptr_t addr) const;
  static constexpr unsigned kChunkShift = 18;  // 1 GiB of address space, 8 MiB of entries
#endif
  // The page's detail record, created on first use; nullptr if memory for
  // it cannot be had.
  PageDetail *detailFor(PageEntry *e);

  // Set when a thread first claims a page (or a page gets its detail): until
  // then every entry is zero, and freeing a block need not read the entries
  // of its pages (a cache miss, or a fault on the zero page, per free of a
  // program that runs with profiling off).
  void noteClaim() {
    if (!claimed_.load(std::memory_order_relaxed)) claimed_.store(true, std::memory_order_relaxed);
  }
  // Read by every free while nothing is profiled (object_fold.h's
  // nothingTouched): kept with the interceptors' other hot data
  // (common/hot_path.h), not on this object's page.
  bool anyClaimed() const { return claimed_.load(std::memory_order_relaxed); }

  // Remote accesses a page takes before it gets its detail (0: at once).
  void setDetailThreshold(uint32_t remote_accesses) { detail_threshold_ = remote_accesses; }
  uint32_t detailThreshold() const { return detail_threshold_; }

  static constexpr uintptr_t kPages = uintptr_t(1) << (kAddressBits - kPageShift);

 private:
#ifndef NUMAPERF_SHADOW_CHUNKED
  PageEntry *table_ = nullptr;
#else
  std::atomic<PageEntry *> *chunks_ = nullptr;  // kPages >> kChunkShift
#endif
  uint32_t detail_threshold_ = 0;
  static std::atomic<bool> claimed_;  // one shadow memory per process
};

ShadowMemory &shadowMemory();

}  // namespace numaperf
