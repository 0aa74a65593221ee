#include "core/object_fold.h"

#include "common/hot_path.h"
#include "common/prefetch.h"
#include "core/deferred_forgets.h"
#include "core/fast_page.h"
#include "core/line_windows.h"
#include "core/mempolicy_registry.h"
#include "core/page_sampling.h"
#include "core/placement_signature.h"
#include "core/shadow_memory.h"
#include "core/sharing_tracker.h"
#include "core/thread_registry.h"

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <cstring>
#include <sys/mman.h>

namespace numaperf {
namespace {

constexpr double kDominantShare = 0.9;
std::atomic<double> g_sharing_share{0.5};

bool contains(uintptr_t start, uintptr_t end, uintptr_t addr) { return addr >= start && addr < end; }

// Folding a block takes each of its lines' records under the record's lock
// with a few locked instructions. The records are cold (other threads wrote
// them last) and locked instructions do not overlap their misses, so the
// record this many lines ahead is asked for, both of its cache lines, while
// the current one is taken (`pipeline`, which folds a 129-line block per
// item: docs/benchmarks.md, "Session 21").
constexpr unsigned kFoldPrefetchLines = 4;

void prefetchLineShare(const PageDetail &d, unsigned index) {
  if (const LineShare *l = d.lines[index].load(std::memory_order_relaxed)) {
    prefetchForWrite(l);
    prefetchForWrite(reinterpret_cast<const char *>(l) + kLineSize);
  }
}

// Moves the page's even remote count (flushSlot) into the lines' own counts,
// except lines [whole_from, whole_to), whose whole counts the caller takes:
// returns the even count, which each of those gets on top. (A page folded
// whole would otherwise pay 64 locked additions before taking the counts.)
uint64_t spreadEvenRemote(PageDetail *d, unsigned whole_from, unsigned whole_to) {
  const uint64_t even = d->line_remote_even.exchange(0, std::memory_order_relaxed);
  if (even)
    for (unsigned i = 0; i < kLinesPerPage; ++i)
      if (i < whole_from || i >= whole_to) d->line_remote[i].fetch_add(even, std::memory_order_relaxed);
  return even;
}

// Takes an object's share of a line's remote count: all of it for a whole
// line; for `overlap` bytes of a line shared with other objects, their part
// of the bytes not claimed yet by objects folded before (PageDetail::
// line_remote), so that the objects on a line take all of its count between
// them. (Shared out by bytes of the whole line, the second of two objects
// took half of what the first left, and the allocator's headers between
// small blocks kept their bytes' share: a list of 16-byte nodes lost more
// than half of its remote accesses.)
uint64_t takeLineRemote(std::atomic<uint64_t> &c, uintptr_t overlap) {
  constexpr unsigned kShift = PageDetail::kClaimedShift;
  constexpr uint64_t kMask = PageDetail::kRemoteCountMask;
  if (overlap >= kLineSize) return c.exchange(0, std::memory_order_relaxed) & kMask;
  uint64_t v = c.load(std::memory_order_relaxed);
  for (;;) {
    const uint64_t count = v & kMask, claimed = std::min<uint64_t>(v >> kShift, kLineSize - 1);
    const uint64_t left = kLineSize - claimed;
    const uint64_t share = overlap >= left ? count : count * overlap / left;
    const uint64_t now = claimed + overlap;
    // Every byte claimed: the next objects here start a new round.
    const uint64_t next = (count - share) | (now >= kLineSize ? 0 : now << kShift);
    // A concurrent increment is not lost.
    if (c.compare_exchange_weak(v, next, std::memory_order_relaxed)) return share;
  }
}

void recordLineEvidence(LineEvidence &ev, uint64_t invalidations, int64_t offset,
                        const LineShare &l) {
  if (!invalidations || (ev.valid && ev.invalidations >= invalidations)) return;
  ev.valid = true;
  ev.invalidations = invalidations;
  ev.offset = offset;
  if (l.words) {
    const uint16_t seen = l.words_seen.load(std::memory_order_relaxed);
    const uint16_t both = l.words_both.load(std::memory_order_relaxed);
    const uint16_t written = l.words_written.load(std::memory_order_relaxed);
    for (unsigned w = 0; w < kWordsPerLine; ++w) {
      ev.first_tag[w] = (seen >> w) & 1 ? l.words->first_tag[w].load(std::memory_order_relaxed) : 0;
      ev.other_tag[w] = (both >> w) & 1 ? l.words->other_tag[w].load(std::memory_order_relaxed) : 0;
      ev.written[w] = (written >> w) & 1;
    }
  }
}

// Empties the line's word detail for the next object (under its lock); the
// new epoch tells threads that what they saw noted for them no longer is.
void clearLineWords(LineShare &l) {
  l.words_seen.store(0, std::memory_order_relaxed);  // the table's tags are stale now
  l.words_both.store(0, std::memory_order_relaxed);
  l.words_written.store(0, std::memory_order_relaxed);
  clearLineSampling(l);
  l.epoch.fetch_add(1, std::memory_order_release);
}

// The words of line `index` that decide whose it is, or 0 when not known:
// the words threads wrote (the writes are what invalidate copies, and a
// thread also reads its neighbours' scalars), or those they touched if none
// was written. Known from the line's word detail, or, on a page still in
// single-user mode (where the line model keeps no LineShares), from the
// words noted for the single user and its reader once the line had detail.
uint16_t decidingWords(const PageDetail &d, unsigned index, const LineShare *l) {
  uint16_t touched = 0, written = 0;
  if (l && l->words) {
    touched = l->words_seen.load(std::memory_order_relaxed);
    written = uint16_t(l->words_written.load(std::memory_order_relaxed) & touched);
  }
  const uint32_t user = d.sole_user.load(std::memory_order_acquire);
  const uint64_t bit = uint64_t(1) << index;
  if (!touched && user != 0 && user != kManyUsers &&
      (d.su_words.load(std::memory_order_relaxed) & bit)) {
    touched = d.su_noted[index].load(std::memory_order_relaxed);
    written = d.su_written[index].load(std::memory_order_relaxed);
    if (d.reader.load(std::memory_order_relaxed) &&
        (d.reader_lines.load(std::memory_order_relaxed) & bit))
      touched = uint16_t(touched | d.reader_noted[index].load(std::memory_order_relaxed));
  }
  return written ? written : touched;
}

// Whether the object [start, end) owns the line's state. With the deciding
// words known: the object holding the middle one of them (the lower one of
// two middles), so exactly one object owns the line whatever the others
// are, and an object covering most of the words always does. (Asking for
// a majority left a line split between three objects to none of them, and
// its invalidations and remote accesses out of the report.) Without: the
// object holding the line's middle byte, or one lying wholly inside the line.
bool claimsLine(uint16_t words, uintptr_t line, uintptr_t start, uintptr_t end) {
  if (words) {
    for (int skip = (__builtin_popcount(words) - 1) / 2; skip > 0; --skip)
      words = uint16_t(words & (words - 1));
    return contains(start, end, line + (uintptr_t(__builtin_ctz(words)) << kWordShift));
  }
  return contains(start, end, line + kLineSize / 2) ||
         (start >= line && end <= line + kLineSize);
}

// Takes a line's sharing counts if the object owns them; returns its
// invalidations, or -1 when the line belongs to another object. Sets
// `words` to the words the decision was made on (decidingWords).
int64_t takeLineShare(LineShare *l, const PageDetail &d, unsigned index, uintptr_t line,
                      uintptr_t start, uintptr_t end, ObjectProfile *out, uint16_t *words) {
  SpinLockGuard guard(l->lock);
  *words = decidingWords(d, index, l);
  if (!claimsLine(*words, line, start, end)) return -1;
  int64_t offset = int64_t(line) - int64_t(start);
  // (Lock-free writers add to the counts while the lock is held: taken
  // with exchange, none is lost.)
  const uint64_t inv = l->invalidations.exchange(0, std::memory_order_relaxed);
  const uint64_t inv_true = l->invalidations_true.exchange(0, std::memory_order_relaxed);
  const uint64_t inv_false = l->invalidations_false.exchange(0, std::memory_order_relaxed);
  out->invalidations += inv;
  out->invalidations_true += inv_true;
  out->invalidations_false += inv_false;
  recordLineEvidence(out->false_sharing_line, inv_false, offset, *l);
  recordLineEvidence(out->true_sharing_line, inv_true, offset, *l);
  if (l->sampling.load(std::memory_order_relaxed) & kLineWasSampled) ++out->lines_sampled_in_windows;
  for (LineSiteCount &site : l->sites) {
    out->addSite(site.pc, site.count);
    site = LineSiteCount();
  }
  l->state.fetch_and(~kContendedLine, std::memory_order_acq_rel);
  l->writes = 0;
  clearLineWords(*l);
  return int64_t(inv);
}

void addDominant(ObjectProfile *out, uint32_t thread) {
  for (uint32_t i = 0; i < out->dominant_thread_count; ++i)
    if (out->dominant_threads[i] == thread) return;
  if (out->dominant_thread_count < kMaxDominantThreads)
    out->dominant_threads[out->dominant_thread_count++] = thread;
}

void addSegment(ObjectProfile *out, uint32_t page_index, uint32_t thread) {
  if (out->segment_count > 0) {
    PageSegment &last = out->segments[out->segment_count - 1];
    if (last.thread == thread && last.last_page + 1 == page_index) {
      last.last_page = page_index;
      return;
    }
  }
  if (out->segment_count == kMaxSegments) {
    out->segments_truncated = true;
    return;
  }
  out->segments[out->segment_count++] = PageSegment{page_index, page_index, thread};
}

// A page sampled away (page_sampling.h) between pages of one thread's run
// belongs to that run: the run's last page is the one before it.
void extendSegment(ObjectProfile *out, uint32_t page_index) {
  if (out->segment_count == 0) return;
  PageSegment &last = out->segments[out->segment_count - 1];
  if (last.last_page + 1 == page_index) last.last_page = page_index;
}

// The sampling tallies of one object instance (docs/sampling.md): what
// the model saw on its sampled pages and what was only counted on its pages
// sampled away. The counts themselves are estimated per allocation site at
// report time (applySampleEstimate), where the site's instances pool their
// sampled pages; only the bandwidth signature, classed page by page here,
// is scaled per instance.
struct SampleEstimate {
  uint64_t away_remote = 0;        // other threads' accesses to pages sampled away
  uint64_t away_shared_pages = 0;  // ... that had any
  uint64_t modelled_remote = 0;    // remote accesses the model counted
  uint64_t modelled_others = 0;    // ... out of this many accesses of other threads
  // away_remote by first toucher, for the signature when nothing scales it.
  static constexpr unsigned kOwners = 8;
  struct OwnerCount {
    uint32_t tag;
    uint64_t accesses;
  } owners[kOwners];
  unsigned owner_count = 0;

  void addAway(uint32_t owner, uint64_t accesses) {
    away_remote += accesses;
    unsigned i = 0;
    while (i < owner_count && owners[i].tag != owner) ++i;
    if (i == owner_count) {
      if (owner_count == kOwners) i = kOwners - 1;  // many touchers: the last takes the rest
      else owners[owner_count++] = OwnerCount{owner, 0};
    }
    owners[i].accesses += accesses;
  }

  void record(ObjectProfile *out, SignatureClassifier *classifier) const {
    out->sampled_modelled_remote += modelled_remote;
    out->sampled_modelled_others += modelled_others;
    if (away_remote == 0) return;
    out->sampled_away_counted += away_remote;
    out->sampled_away_shared_pages += away_shared_pages;
    if (modelled_others) {
      classifier->scaleOthers(double(modelled_others + away_remote) / double(modelled_others));
    } else {
      for (unsigned i = 0; i < owner_count; ++i)
        classifier->addEarlyRemote(owners[i].tag, owners[i].accesses);
    }
  }
};

// Takes the page-level state: who used the page, reads and writes, sites.
void takePageState(PageDetail *d, uint32_t page_index, ObjectProfile *out) {
  uint64_t total = 0, top = 0;
  uint32_t top_tag = 0, users = 0;
  forEachPageThread(*d, [&](uint32_t tag, uint64_t accesses) {
    if (!accesses) return;
    ++users;
    total += accesses;
    if (accesses > top) top = accesses, top_tag = tag;
  });
  if (total) {
    ++out->shared_pages;
    out->max_threads_per_page = std::max(out->max_threads_per_page, users);
    uint32_t thread = kMixedThreads;
    if (double(top) >= kDominantShare * double(total)) {
      ++out->single_thread_pages;
      thread = top_tag - 1;
      addDominant(out, thread);
    }
    addSegment(out, page_index, thread);
  }
  PageAccessTotals totals = pageAccessTotals(*d);
  out->shared_reads += totals.reads;
  out->shared_writes += totals.writes;
  out->reads_after_last_write += pageReadsSinceWrite(*d);
  d->reads_since_write.store(0, std::memory_order_relaxed);
  forEachPageThreadCounts(*d, [](uint32_t, PageThreadCounts &c) {
    c.accesses.store(0, std::memory_order_relaxed);
    c.writes.store(0, std::memory_order_relaxed);
  });
  for (AccessSiteCount &s : d->sites) {
    out->addSite(s.pc.load(std::memory_order_relaxed),
                 s.count.exchange(0, std::memory_order_relaxed));
    s.pc.store(0, std::memory_order_relaxed);
  }
}

// Empties a page's detail for the next object at these addresses. The record
// itself stays (threads may still point at it).
void resetDetail(PageDetail *d) {
  d->generation.fetch_add(1, std::memory_order_acq_rel);  // drops threads' buffered counts
  d->shared.store(false, std::memory_order_relaxed);
  d->written_while_shared.store(false, std::memory_order_relaxed);
  d->sole_user.store(0, std::memory_order_relaxed);
  d->reader.store(0, std::memory_order_relaxed);
  d->reader_lines.store(0, std::memory_order_relaxed);
  d->su_lines.store(0, std::memory_order_relaxed);
  d->su_words.store(0, std::memory_order_relaxed);
  d->su_noted_full.store(0, std::memory_order_relaxed);
  d->su_written_full.store(0, std::memory_order_relaxed);
  for (unsigned i = 0; i < kLinesPerPage; ++i) {
    d->su_writes[i].store(0, std::memory_order_relaxed);
    d->su_noted[i].store(0, std::memory_order_relaxed);
    d->su_written[i].store(0, std::memory_order_relaxed);
    d->reader_noted[i].store(0, std::memory_order_relaxed);
  }
  for (std::atomic<uint64_t> &c : d->line_remote) c.store(0, std::memory_order_relaxed);
  d->line_remote_even.store(0, std::memory_order_relaxed);
  for (std::atomic<LineShare *> &slot : d->lines) {
    LineShare *l = slot.load(std::memory_order_acquire);
    if (!l) continue;
    SpinLockGuard guard(l->lock);
    l->state.store(0, std::memory_order_release);
    l->listed = 0;
    l->writes = 0;
    l->invalidations.store(0, std::memory_order_relaxed);
    l->invalidations_true.store(0, std::memory_order_relaxed);
    l->invalidations_false.store(0, std::memory_order_relaxed);
    for (LineSiteCount &site : l->sites) site = LineSiteCount();
    clearLineWords(*l);
  }
  SpinLockGuard guard(d->threads_lock);
  for (unsigned i = 0; i < kInlinePageThreads; ++i) {
    d->thread_tags[i].store(0, std::memory_order_relaxed);
    d->threads[i].counts.accesses.store(0, std::memory_order_relaxed);
    d->threads[i].counts.writes.store(0, std::memory_order_relaxed);
  }
  if (PageThreadOverflow *o = d->more_threads.load(std::memory_order_acquire))
    o->count.store(0, std::memory_order_release);  // addUse zeroes reused entries
  d->highest_tag.store(0, std::memory_order_release);
  d->reads_since_write.store(0, std::memory_order_relaxed);
  for (AccessSiteCount &site : d->sites) {
    site.pc.store(0, std::memory_order_relaxed);
    site.count.store(0, std::memory_order_relaxed);
  }
}

}  // namespace

namespace {
uint64_t scaled(uint64_t v, double f) { return uint64_t(double(v) * f + 0.5); }
}  // namespace

void applySampleEstimate(ObjectProfile *p) {
  const uint64_t away = p->sampled_away_counted, others = p->sampled_modelled_others;
  if (away == 0) return;
  if (others == 0) {  // no sampled page was shared: every access counts
    p->remote += away;
    p->sampled_away_estimated = away;
    p->shared_pages += p->sampled_away_shared_pages;
    return;
  }
  const double f = double(others + away) / double(others);
  const uint64_t estimated = scaled(p->sampled_modelled_remote, f) - p->sampled_modelled_remote;
  p->remote += estimated;
  p->sampled_away_estimated = estimated;
  for (uint64_t *v : {&p->remote_in_sharing_pages, &p->sharing_page_invalidations,
                      &p->sharing_page_lines, &p->invalidations, &p->invalidations_true,
                      &p->invalidations_false, &p->shared_reads, &p->shared_writes,
                      &p->reads_after_last_write})
    *v = scaled(*v, f);
  const uint64_t modelled_pages = p->shared_pages;
  p->shared_pages += p->sampled_away_shared_pages;
  if (modelled_pages)
    p->single_thread_pages =
        scaled(p->single_thread_pages, double(p->shared_pages) / double(modelled_pages));
}

void forgetPage(PageEntry *e, uintptr_t addr) {
  uint32_t owner = e->owner.exchange(0, std::memory_order_relaxed);
  // Its first toucher must stop counting it inline (fast_page.h).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  dropFastPage(owner, addr);
  e->early_remote.store(0, std::memory_order_relaxed);
  e->owner_reads.store(0, std::memory_order_relaxed);
  e->owner_writes.store(0, std::memory_order_relaxed);
  if (PageDetail *d = e->detail.load(std::memory_order_acquire)) resetDetail(d);
}

void setSharingDominanceShare(double share) { g_sharing_share.store(share); }

namespace {

bool untouchedPages(ShadowMemory &shadow, uintptr_t start, uintptr_t end) {
  for (uintptr_t page = start & ~(kPageSize - 1); page < end; page += kPageSize) {
    PageEntry *e = shadow.entryFor(page);
    if (!e) return true;  // the loop below stops here too
    if (e->owner.load(std::memory_order_relaxed) ||
        e->early_remote.load(std::memory_order_relaxed) ||
        e->owner_reads.load(std::memory_order_relaxed) ||
        e->owner_writes.load(std::memory_order_relaxed) ||
        e->detail.load(std::memory_order_acquire))
      return false;
  }
  return true;
}

}  // namespace

NUMAPERF_HOT_PATH bool nothingTouched() {
  // A page is claimed only once the shadow memory is ready; not asking
  // whether it is keeps the shadow memory's own page out of every free.
  return !shadowMemory().anyClaimed();
}

bool rangeUntouched(uintptr_t start, uintptr_t end) {
  return end <= start || nothingTouched() || untouchedPages(shadowMemory(), start, end);
}

namespace {

// A page the range only partly covers that stayed private to the calling
// thread, the range's retirer (its inline counts are flushed), forgets its
// first toucher with the range, like the whole pages: otherwise a block the
// allocator hands to another thread at the same addresses (glibc gives an
// exited thread's arena to the next new thread) inherits it. The price of not
// asking the allocator who else lives there: a neighbour block the same
// thread touched loses its first toucher too, and its private (local) counts
// when it does not hold the page's middle byte.
bool privateToRetirer(const PageDetail *d, uint32_t owner, bool counted_remote) {
  const ThreadState *t = ThreadRegistry::current();
  return t && pageKeptPrivate(t->owner_tag, owner, counted_remote, d);
}

}  // namespace

bool pageKeptPrivate(uint32_t tag, uint32_t owner, bool counted_remote, const PageDetail *d) {
  if (owner != tag || counted_remote) return false;
  return !d || (!d->shared.load(std::memory_order_relaxed) &&
                d->sole_user.load(std::memory_order_relaxed) == 0);
}

bool takeObjectProfile(uintptr_t start, uintptr_t end, bool forget_pages, ObjectProfile *out,
                       uintptr_t claim_start, uintptr_t claim_end) {
  ShadowMemory &shadow = shadowMemory();
  if (!shadow.ready() || end <= start) return false;
  if (!claim_start || claim_start > start) claim_start = start;
  if (claim_end < end) claim_end = end;
  if (untouchedPages(shadow, start, end)) return false;
  const double sharing_share = g_sharing_share.load(std::memory_order_relaxed);
  const uintptr_t first_page = start & ~(kPageSize - 1);
  out->object_pages = (end - first_page + kPageSize - 1) >> kPageShift;
  SignatureClassifier classifier;
  SampleEstimate estimate;
  const PolicyView policies(first_page, end);
  for (uintptr_t page = first_page; page < end; page += kPageSize) {
    PageEntry *e = shadow.entryFor(page);
    if (!e) break;
    bool whole_page = start <= page && page + kPageSize <= end;
    const uint32_t owner = e->owner.load(std::memory_order_relaxed);
    const bool page_state_here = contains(start, end, page + kPageSize / 2);
    PageUse use;
    use.owner_tag = owner;
    uint32_t early_word = e->early_remote.load(std::memory_order_relaxed);
    const bool counted_remote = early_word != 0;
    const bool away = sampledAway(early_word);
    if (away) {
      // Counted instead of modelled (sampled away): like the page's thread
      // counts, the whole count goes to the object holding the middle byte
      // (shared out by bytes, a page of small blocks would lose what lies
      // between them and what rounds away).
      if (page_state_here && (early_word & kEarlyCountMask)) {
        while (!e->early_remote.compare_exchange_weak(early_word, early_word & kSampledAwayBit)) {
        }
        if (uint32_t count = early_word & kEarlyCountMask) {
          estimate.addAway(owner, count);
          ++estimate.away_shared_pages;
          extendSegment(out, uint32_t((page - first_page) >> kPageShift));
        }
      }
    } else if (early_word) {
      // Counted before the page had detail: shared out by bytes covered.
      uint64_t covered = std::min(end, page + kPageSize) - std::max(start, page);
      auto shareOf = [&](uint32_t word) { return uint32_t(uint64_t(word) * covered / kPageSize); };
      uint32_t share = shareOf(early_word);
      while (share && !e->early_remote.compare_exchange_weak(early_word, early_word - share))
        share = shareOf(early_word);
      out->remote += share;
      classifier.addEarlyRemote(owner, share);
    }
    if (away && page_state_here) ++out->pages_sampled_away;
    PageDetail *d = e->detail.load(std::memory_order_acquire);
    if (d) {
      uint64_t page_remote = 0, page_invalidations = 0, lines_invalidated = 0;
      // The page's bytes the object claims (its own, and its chunk's).
      uintptr_t lo = std::max(claim_start, page), hi = std::min(claim_end, page + kPageSize);
      const unsigned whole_from = unsigned((lo - page + kLineSize - 1) >> kLineShift);
      const uint64_t even =
          spreadEvenRemote(d, whole_from, std::max(whole_from, unsigned((hi - page) >> kLineShift)));
      const uintptr_t first_line = lo & ~(kLineSize - 1);
      const uintptr_t ahead = kFoldPrefetchLines * kLineSize;
      for (uintptr_t line = first_line; line < hi && line < first_line + ahead; line += kLineSize)
        prefetchLineShare(*d, unsigned((line >> kLineShift) % kLinesPerPage));
      for (uintptr_t line = first_line; line < hi; line += kLineSize) {
        unsigned index = unsigned((line >> kLineShift) % kLinesPerPage);
        if (line + ahead < hi) prefetchLineShare(*d, index + kFoldPrefetchLines);
        uintptr_t overlap = std::min(hi, line + kLineSize) - std::max(lo, line);
        const uint64_t whole_even = overlap >= kLineSize ? even : 0;  // see spreadEvenRemote
        LineShare *l = d->lines[index].load(std::memory_order_acquire);
        // Without a LineShare (a page in single-user mode), the words noted
        // for its single user still say whose line it is.
        uint16_t words = 0;
        int64_t inv = -1;
        if (l)
          inv = takeLineShare(l, *d, index, line, start, end, out, &words);
        else if (overlap < kLineSize)
          words = decidingWords(*d, index, nullptr);
        if (inv > 0) {  // the line's sharing state is this object's
          page_invalidations += uint64_t(inv);
          ++lines_invalidated;
        }
        // Known words say whose the line's accesses were; without them (a
        // record with no word detail yet) its remote count is shared out by
        // bytes, like a line without a record, in whatever order the
        // objects on it are folded (scores.md, "Attribution rules").
        if ((inv >= 0 && (words || overlap >= kLineSize)) ||
            (!l && words && claimsLine(words, line, start, end))) {
          // The line's accesses were to this object: all its remote counts too.
          page_remote += takeLineRemote(d->line_remote[index], kLineSize) + whole_even;
        } else if (words && overlap < kLineSize) {
          // The words used say the line's traffic belongs to another object.
        } else {
          page_remote += takeLineRemote(d->line_remote[index], overlap) + whole_even;
        }
      }
      out->remote += page_remote;
      estimate.modelled_remote += page_remote;
      if (double(page_invalidations) > sharing_share * double(page_remote)) {
        out->remote_in_sharing_pages += page_remote;
        out->sharing_page_invalidations += page_invalidations;
        out->sharing_page_lines += lines_invalidated;
      }
      if (page_state_here) {
        forEachPageThread(*d, [&](uint32_t tag, uint64_t accesses) {
          if (!accesses) return;
          ++use.users;
          use.user_bits |= uint64_t(1) << (tag % 64);
          (tag == owner ? use.toucher_shared : use.others_shared) += accesses;
        });
        estimate.modelled_others += use.others_shared;
        uint64_t reads = out->shared_reads, writes = out->shared_writes;
        takePageState(d, uint32_t((page - first_page) >> kPageShift), out);
        use.shared_reads = out->shared_reads - reads;
        use.shared_writes = out->shared_writes - writes;
      }
    }
    if (page_state_here && owner) {
      use.private_reads = e->owner_reads.exchange(0, std::memory_order_relaxed);
      use.private_writes = e->owner_writes.exchange(0, std::memory_order_relaxed);
      use.interleaved = policies.interleaved(page, owner);
      if (away)
        classifier.addSampledAway(use);
      else
        classifier.addPage(use);
    }
    if (forget_pages && whole_page)
      forgetPage(e, page);
    else if (forget_pages && privateToRetirer(d, owner, counted_remote))
      deferPageForget(*ThreadRegistry::current(), page);  // core/deferred_forgets.h
    else if (forget_pages && away && sampledSize(end - start))
      // A large object's edge page: the next object here decides afresh.
      // (A page of small blocks is checked again as its count grows.)
      e->early_remote.fetch_and(kEarlyCountMask, std::memory_order_relaxed);
  }
  estimate.record(out, &classifier);
  classifier.finish(&out->signature);
  out->evidence_weight = out->remote + out->sampled_away_counted + out->invalidations;
  return out->remote || out->invalidations || out->shared_pages || out->sampled_away_counted ||
         out->signature.total() > 0;
}

void forgetWholePages(uintptr_t start, uint64_t size) {
  ShadowMemory &shadow = shadowMemory();
  if (!shadow.ready() || size == 0 || start + size < start) return;
  uintptr_t page = (start + kPageSize - 1) & ~(kPageSize - 1);
  for (; page + kPageSize <= start + size; page += kPageSize)
    if (PageEntry *e = shadow.entryFor(page)) forgetPage(e, page);
}

void forgetReleasedEdgePages(uintptr_t start, uint64_t size) {
  ShadowMemory &shadow = shadowMemory();
  if (!shadow.ready() || size == 0) return;
  int saved_errno = errno;  // free() must leave errno alone
  const uintptr_t edges[2] = {start & ~(kPageSize - 1), (start + size - 1) & ~(kPageSize - 1)};
  for (int i = 0; i < 2; ++i) {
    if (i == 1 && edges[1] == edges[0]) break;
    unsigned char resident = 0;
    bool released = mincore(reinterpret_cast<void *>(edges[i]), kPageSize, &resident) == 0
                        ? !(resident & 1)
                        : errno == ENOMEM;
    if (!released) continue;  // still holds its physical page (or cannot tell)
    if (PageEntry *e = shadow.entryFor(edges[i])) forgetPage(e, edges[i]);
  }
  errno = saved_errno;
}

}  // namespace numaperf
