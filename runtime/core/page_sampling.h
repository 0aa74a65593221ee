// Page sampling of the shared-page model (docs/sampling.md).
//
// Modelling every access to a page that several threads use (its PageDetail,
// the copy holders of each line, word detail) costs several cache misses
// per access on top of the program's own. For large objects most of that
// buys nothing the report needs: their pages behave alike, so a sample of
// them tells how the object is shared. Pages of an object of at least
// `min_bytes` are modelled in full one in `rate` (chosen by a hash of the
// page number, so a sampled page keeps its whole history: a copy is only
// invalidated by a write that follows another thread's access to the line,
// and both must be seen). On the other pages ("sampled away") other
// threads' accesses are only counted, per page, in PageEntry::early_remote;
// when the object is folded, its sampled pages' ratios turn those counts
// into estimates (applySampleEstimate). Smaller objects, globals included,
// are never sampled away (a few falsely shared counters are modelled
// exactly), except on heap pages packed with the blocks of allocation sites
// that allocate thousands of objects (a hash table's nodes), which are
// estimated per allocation site from the site's sampled pages.
#pragma once

#include "common/spin_lock.h"
#include "core/shadow_memory.h"

#include <atomic>
#include <cstdint>

namespace numaperf {

// PageEntry::early_remote of a page sampled away: this bit, and the count
// of other threads' accesses below it (saturating at kSampledCountCap).
constexpr uint32_t kSampledAwayBit = 0x80000000u;
constexpr uint32_t kEarlyCountMask = kSampledAwayBit - 1;
constexpr uint32_t kSampledCountCap = kEarlyCountMask >> 1;  // room for concurrent adds

inline bool sampledAway(uint32_t early_remote) { return (early_remote & kSampledAwayBit) != 0; }

// Adds `n` accesses to a sampled-away page's count (saturating).
inline void countSampledAway(PageEntry *e, uint32_t early, uint64_t n) {
  if ((early & kEarlyCountMask) + n < kSampledCountCap)
    e->early_remote.fetch_add(uint32_t(n), std::memory_order_relaxed);
}

// A thread's counts for pages sampled away, added to a page a few hundred
// at a time. Why: every thread reaching a large object adds to the page
// entries of its pages, so with one add per access those entries' cache
// lines move between cores at nearly every access (a graph read at random
// by all workers spent a third of its instrumented time there; matrix rows
// read by every worker, a tenth). A thread instead keeps its count in
// `pending` and adds it whole to the page whose access brings it past
// `due`, a threshold drawn at random in [1, 2 * kBatch] each time: the
// thread's total stays exact, and each add lands on a page with a
// probability proportional to the accesses made there, so a page's and an
// object's counts stay unbiased estimates whatever order the thread visits
// its pages in (a fixed threshold would give every add to the same page of
// a loop that visits two arrays in turn). docs/sampling.md, "Counting pages
// sampled away".
struct SampledAwayTally {
  static constexpr uint64_t kBatch = 1024;
  uint64_t pending = 0;
  uint64_t due = 0;          // 0 until the first add
  uint64_t rng = 0;          // xorshift64 state; 0: not seeded yet
  PageEntry *last = nullptr;  // the page of the last access counted
  void seed(uint64_t s) { rng = s ? s : 1; }
  uint64_t draw() {
    if (!rng) rng = 0x9e3779b97f4a7c15ull;
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return 1 + rng % (2 * kBatch);
  }
};

// Counts `n` accesses of the calling thread to the sampled-away page of `e`
// (`early`: its early_remote as just read). Returns what was added to the
// page now (0 or the thread's whole pending count): at the drawn threshold,
// or at once on a page whose count is still zero.
inline uint64_t tallySampledAway(SampledAwayTally &t, PageEntry *e, uint32_t early, uint64_t n) {
  t.pending += n;
  t.last = e;
  // A page no thread has counted on yet gets the count now: the report
  // tells shared pages by a count above zero (docs/sampling.md).
  if (t.pending < t.due && (early & kEarlyCountMask)) return 0;
  const uint64_t added = t.pending;
  countSampledAway(e, early, added);
  t.pending = 0;
  t.due = t.draw();
  return added;
}

// Adds the pending count to the page counted last, if that page is still
// sampled away (freed and reused since, the count is dropped: its object
// is gone).
inline void flushSampledAway(SampledAwayTally &t) {
  if (t.pending && t.last) {
    const uint32_t early = t.last->early_remote.load(std::memory_order_relaxed);
    if (sampledAway(early)) countSampledAway(t.last, early, t.pending);
  }
  t.pending = 0;
  t.last = nullptr;
}

// A page of small blocks was sampled away for what it held then; the
// allocator may since have put other blocks there. Checked again each time
// its count passes a multiple of this.
constexpr uint32_t kSampleRecheckAccesses = 4096;
inline bool sampleRecheckDue(uint32_t early, uint64_t n) {
  const uint64_t before = early & kEarlyCountMask;
  return (before / kSampleRecheckAccesses) != ((before + n) / kSampleRecheckAccesses);
}

struct PageSamplingConfig {
  uint32_t rate = 8;               // one page in `rate` modelled; 0 or 1: every page
  uint64_t min_bytes = 1u << 20;  // objects smaller than this are never sampled...
  // ... unless their page is packed with small heap blocks of allocation
  // sites that each allocated at least this many objects (0: never).
  uint64_t site_objects = 1024;
};

// The address ranges of live objects large enough to be sampled: heap
// blocks, mappings and globals, added when they appear and removed when
// they go. Looked up once per page, when a second thread first reaches it.
class SampledRanges {
 public:
  void add(uintptr_t start, uint64_t size);
  // Removes every range overlapping [start, start + size).
  void remove(uintptr_t start, uint64_t size);
  bool contains(uintptr_t addr);
  uint64_t count();
  void lockAll() { lock_.lock(); }
  void unlockAll() { lock_.unlock(); }

 private:
  struct Range {
    uintptr_t start, end;
  };
  // The first range starting after `addr` (ranges are sorted by start and
  // do not overlap).
  uint32_t upperBound(uintptr_t addr) const;
  bool reserve(uint32_t needed);
  SpinLock lock_;
  Range *items_ = nullptr;
  uint32_t count_ = 0, capacity_ = 0;
};

void setPageSampling(const PageSamplingConfig &config);
const PageSamplingConfig &pageSampling();
// Whether objects of `size` bytes have pages sampled away.
bool sampledSize(uint64_t size);
SampledRanges &sampledRanges();

// Whether the page at `addr`, which a second thread has just reached, is
// to be left out of the model.
bool samplePageAway(uintptr_t addr);
// Marks the page of `e` sampled away (keeping the count it has) and counts
// it, once, in pagesSampledAway.
void markSampledAway(PageEntry *e);
// Pages left out of the model so far.
uint64_t pagesSampledAway();

}  // namespace numaperf
