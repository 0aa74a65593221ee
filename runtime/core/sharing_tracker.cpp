#include "core/sharing_tracker.h"

#include "core/shared_page_cache.h"

#include "common/internal_alloc.h"
#include "common/prefetch.h"
#include "core/line_windows.h"

#include <algorithm>
#include <cstring>

namespace numaperf {
namespace {

std::atomic<uint32_t> g_word_detail_writes{2};

// The thread's counts on the page, or nullptr when it is not listed.
PageThreadCounts *findUse(PageDetail *d, uint32_t tag) {
  if (tag > d->highest_tag.load(std::memory_order_acquire)) return nullptr;
  for (unsigned i = 0; i < kInlinePageThreads; ++i)
    if (d->thread_tags[i].load(std::memory_order_acquire) == tag) return &d->threads[i].counts;
  if (PageThreadOverflow *o = d->more_threads.load(std::memory_order_acquire)) {
    uint32_t n = o->count.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < n; ++i)
      if (o->uses[i].tag.load(std::memory_order_acquire) == tag) return &o->uses[i].counts;
  }
  return nullptr;
}

// Adds `tag` to the page's thread list (exact, no limit on thread count).
PageThreadCounts *addUse(PageDetail *d, uint32_t tag) {
  SpinLockGuard guard(d->threads_lock);
  if (PageThreadCounts *u = findUse(d, tag)) return u;
  // Published before the tag itself: a reader that finds no higher bound
  // and then misses the tag goes on to this lock, which finds it.
  if (tag > d->highest_tag.load(std::memory_order_relaxed))
    d->highest_tag.store(tag, std::memory_order_release);
  for (unsigned i = 0; i < kInlinePageThreads; ++i) {
    if (d->thread_tags[i].load(std::memory_order_relaxed) == 0) {
      d->thread_tags[i].store(tag, std::memory_order_release);
      return &d->threads[i].counts;
    }
  }
  PageThreadOverflow *o = d->more_threads.load(std::memory_order_relaxed);
  uint32_t count = o ? o->count.load(std::memory_order_relaxed) : 0;
  if (!o || count == o->capacity) {
    uint32_t capacity = o ? o->capacity * 2 : 8;
    size_t bytes = sizeof(PageThreadOverflow) + (capacity - 1) * sizeof(PageThreadUse);
    auto *bigger = static_cast<PageThreadOverflow *>(internalAllocDetail(bytes));
    if (!bigger) return nullptr;
    new (bigger) PageThreadOverflow();
    bigger->capacity = capacity;
    for (uint32_t i = 0; i < count; ++i) {
      bigger->uses[i].tag.store(o->uses[i].tag.load(std::memory_order_relaxed),
                                std::memory_order_relaxed);
      const PageThreadCounts &from = o->uses[i].counts;
      bigger->uses[i].counts.accesses.store(from.accesses.load(std::memory_order_relaxed),
                                            std::memory_order_relaxed);
      bigger->uses[i].counts.writes.store(from.writes.load(std::memory_order_relaxed),
                                          std::memory_order_relaxed);
    }
    bigger->count.store(count, std::memory_order_relaxed);
    bigger->previous = o;  // a reader may still be scanning the old list
    d->more_threads.store(bigger, std::memory_order_release);
    o = bigger;
  }
  o->uses[count].counts.accesses.store(0, std::memory_order_relaxed);
  o->uses[count].counts.writes.store(0, std::memory_order_relaxed);
  o->uses[count].tag.store(tag, std::memory_order_release);
  o->count.store(count + 1, std::memory_order_release);
  return &o->uses[count].counts;
}

void countSite(PageDetail *d, uintptr_t pc, uint64_t n = 1) {
  for (AccessSiteCount &s : d->sites) {
    uintptr_t seen = s.pc.load(std::memory_order_relaxed);
    if (seen == pc) {
      s.count.fetch_add(n, std::memory_order_relaxed);
      return;
    }
    if (seen == 0 && s.pc.compare_exchange_strong(seen, pc, std::memory_order_relaxed)) {
      s.count.fetch_add(n, std::memory_order_relaxed);
      return;
    }
    if (seen == pc) {
      s.count.fetch_add(n, std::memory_order_relaxed);
      return;
    }
  }
  // All slots hold other sites: the first sites to reach a page keep their
  // slots (a page is normally touched by few distinct instructions).
}

// Keeps the two instructions seen most on a contended line (space-saving:
// a newcomer replaces the weaker entry and inherits its count).
void countLineSite(LineShare &l, uintptr_t pc, uint64_t n = 1) {
  LineSiteCount *weakest = &l.sites[0];
  for (LineSiteCount &s : l.sites) {
    if (s.pc == pc) {
      s.count += n;
      return;
    }
    if (s.count < weakest->count) weakest = &s;
  }
  weakest->pc = pc;
  weakest->count += n;
}

bool listed(const LineShare &l, uint64_t state, uint32_t tag) {
  if (!(state & kListedHolders)) return false;
  for (uint32_t i = 0; i < l.listed; ++i)
    if (l.holders[i] == tag) return true;
  return false;
}

// Whether `tag` holds a copy in `state` (the list is read under the lock).
bool holds(const LineShare &l, uint64_t state, uint32_t tag) {
  const uint64_t bit = holderBit(tag);
  return bit ? (state & bit) != 0 : listed(l, state, tag);
}

// Set bits of a holder mask: a line has few holders, and without -mpopcnt
// (not every x86-64 host has it) __builtin_popcountll is a library call.
inline uint32_t maskedHolders(uint64_t mask) {
  uint32_t n = 0;
  for (; mask; mask &= mask - 1) ++n;
  return n;
}

uint32_t holderCount(const LineShare &l, uint64_t state) {
  return maskedHolders(state & kHolderMask) +
         ((state & kListedHolders) ? l.listed : 0);
}

// Adds a thread without a mask bit to the list (under the lock; the caller
// sets kListedHolders). False when memory for a longer list cannot be had:
// the copy count then saturates and invalidations undercount.
bool listHolder(LineShare &l, uint32_t tag) {
  if (l.listed == l.list_capacity) {
    uint32_t capacity = l.list_capacity * 2;
    auto *bigger = static_cast<uint32_t *>(internalAllocDetail(capacity * sizeof(uint32_t)));
    if (!bigger) return false;
    memcpy(bigger, l.holders, l.listed * sizeof(uint32_t));
    if (l.holders != l.inline_holders) internalFree(l.holders, l.list_capacity * sizeof(uint32_t));
    l.holders = bigger;
    l.list_capacity = capacity;
  }
  l.holders[l.listed++] = tag;
  return true;
}

// Makes `tag` a holder (under the lock). Returns whether it was not one.
bool addHolder(LineShare &l, uint32_t tag) {
  const uint64_t bit = holderBit(tag);
  uint64_t state = l.state.load(std::memory_order_acquire);
  if (holds(l, state, tag)) return false;
  if (bit) {
    l.state.fetch_or(bit, std::memory_order_acq_rel);
    return true;
  }
  if (!(state & kListedHolders)) l.listed = 0;
  if (listHolder(l, tag)) l.state.fetch_or(kListedHolders, std::memory_order_acq_rel);
  return true;
}

LineShare *newLineShare() {
  LineShare *l = internalNewDetail<LineShare>();
  if (!l) return nullptr;
  l->holders = l->inline_holders;
  l->list_capacity = sizeof(l->inline_holders) / sizeof(l->inline_holders[0]);
  return l;
}

LineShare *lineFor(PageDetail *d, unsigned index, bool create) {
  LineShare *l = d->lines[index].load(std::memory_order_acquire);
  if (l || !create) return l;
  LineShare *fresh = newLineShare();
  if (!fresh) return nullptr;
  if (d->lines[index].compare_exchange_strong(l, fresh, std::memory_order_acq_rel))
    return fresh;
  internalDelete(fresh);
  return l;
}

// True when another thread has used one of the words in `words` (with or
// without the lock: the detail only grows between epochs).
bool othersUseWords(const LineShare &l, uint16_t words, uint32_t tag) {
  if (words & l.words_both.load(std::memory_order_relaxed))
    return true;  // two distinct threads: one is not `tag`
  const WordDetail &w = *l.words;
  for (uint32_t seen = words & l.words_seen.load(std::memory_order_acquire); seen;
       seen &= seen - 1) {
    const unsigned i = unsigned(__builtin_ctz(seen));
    if (w.first_tag[i].load(std::memory_order_relaxed) != tag) return true;
  }
  return false;
}

// Notes `tag`'s use of `words` (under the lock). Returns whether anything
// changed. A word not seen yet gets its first tag without reading the table
// (what is there is stale); a seen one is read only while it names one
// thread.
bool noteWords(LineShare &l, uint16_t words, uint32_t tag, bool is_write) {
  const uint16_t both = l.words_both.load(std::memory_order_relaxed);
  const uint16_t written = l.words_written.load(std::memory_order_relaxed);
  // Words that already name two threads, and are marked written if this is
  // a write, cannot change.
  if (!(words & ~both) && (!is_write || !(words & ~written))) return false;
  const uint16_t seen = l.words_seen.load(std::memory_order_relaxed);
  WordDetail &w = *l.words;
  uint16_t new_both = both, new_seen = seen;
  for (uint32_t todo = words & ~both; todo; todo &= todo - 1) {
    const unsigned i = unsigned(__builtin_ctz(todo));
    const uint16_t bit = uint16_t(1u << i);
    if (!(seen & bit)) {
      w.first_tag[i].store(tag, std::memory_order_relaxed);
      new_seen = uint16_t(new_seen | bit);
    } else if (w.first_tag[i].load(std::memory_order_relaxed) != tag) {
      w.other_tag[i].store(tag, std::memory_order_relaxed);
      new_both = uint16_t(new_both | bit);
    }
  }
  const uint16_t new_written = is_write ? uint16_t(written | words) : written;
  // Released: a lock-free reader that finds a word seen finds its tag.
  if (new_seen != seen) l.words_seen.store(new_seen, std::memory_order_release);
  if (new_both != both) l.words_both.store(new_both, std::memory_order_relaxed);
  if (new_written != written) l.words_written.store(new_written, std::memory_order_relaxed);
  return new_seen != seen || new_both != both || new_written != written;
}

// Whether the thread models the line only in time windows (line_windows.h),
// as the line says now (read with its state, in the same cache line).
inline void rememberSampling(SharedPageSlot &s, uint64_t bit, const LineShare &l) {
  if (l.sampling.load(std::memory_order_relaxed) & kLineSampledNow)
    s.sampled_lines |= bit;
  else
    s.sampled_lines &= ~bit;
}

// Records in the thread's slot which of its words the line's detail has
// noted (called under the line's lock, after the access of `words` was
// noted). `kept_noted`: words the slot knew to be noted for `tag` in this
// epoch, or 0.
// The noted words are derived from the line's summaries, never from the
// word detail itself: on lines threads keep taking from each other that
// detail is cold, and reading it was half the cost of the exact path.
// The result may miss a word noted earlier (the next access to it then takes
// the lock once more), never claims one that is not.
void rememberLine(SharedPageSlot &s, unsigned index, const LineShare &l, uint16_t words,
                  uint16_t kept_noted) {
  uint64_t bit = uint64_t(1) << index;
  s.line_epoch[index] = l.epoch.load(std::memory_order_relaxed);
  s.known_lines |= bit;
  uint16_t noted = 0, written = 0;
  if (l.words) {
    // A word naming two threads is not changed by another access of `tag`;
    // nor is one this access just noted.
    noted = uint16_t(kept_noted | l.words_both.load(std::memory_order_relaxed) | words);
    written = uint16_t(l.words_written.load(std::memory_order_relaxed) & noted);
  }
  s.has_words = l.words ? s.has_words | bit : s.has_words & ~bit;
  rememberSampling(s, bit, l);
  s.noted_words[index] = noted;
  s.written_words[index] = written;
}

// Counts `copies` invalidated by a write of `tag` to `words`, as true or
// false sharing when the line keeps word detail; `weight` each (a write
// modelled in a time window stands for that many: line_windows.h).
void countInvalidations(LineShare &l, uint32_t copies, uint16_t words, uint32_t tag,
                        uint32_t weight) {
  if (__builtin_expect(l.sampling.load(std::memory_order_relaxed) & kLineSampledNow, 0))
    copies = windowedCopies(l, copies);
  const uint64_t n = uint64_t(copies) * weight;
  const uint64_t before = l.invalidations.fetch_add(n, std::memory_order_relaxed);
  if (l.words)
    (othersUseWords(l, words, tag) ? l.invalidations_true : l.invalidations_false)
        .fetch_add(n, std::memory_order_relaxed);
  judgeLineRate(l, before, n);
}

// The exact copy model for one access to a tracked line, under its lock.
// Returns whether the access counts as remote; records the line's site for
// misses and invalidating writes. With a slot, refreshes the thread's view
// of the line's words. `weight`: how many accesses this one stands for
// (line_windows.h; the caller weights the remote access).
bool lineAccess(LineShare &line, uint32_t tag, uint16_t words, bool is_write, bool is_remote,
                uintptr_t pc, SharedPageSlot *slot, unsigned index, uint32_t weight = 1) {
  SpinLockGuard guard(line.lock);
  uint64_t bit = uint64_t(1) << index;
  uint16_t kept_noted =
      slot && (slot->known_lines & bit) && (slot->has_words & bit) &&
              line.epoch.load(std::memory_order_relaxed) == slot->line_epoch[index]
          ? slot->noted_words[index]
          : 0;
  bool counted_remote = is_remote;
  bool invalidated = false;
  if (is_write) {
    // The decision is made on the state the write replaces: lock-free
    // readers may add their copies up to the moment it is taken (the list
    // only changes under the lock, so it is as the loop reads it).
    const uint64_t mine = holderBit(tag);
    uint64_t state = line.state.load(std::memory_order_acquire), next;
    bool held;
    uint32_t copies;
    do {
      held = holds(line, state, tag);
      copies = holderCount(line, state) - (held ? 1 : 0);
      next = (mine ? mine : kListedHolders) | (state & kContendedLine) |
             (copies ? kContendedLine : 0);
    } while (!line.state.compare_exchange_weak(state, next, std::memory_order_acq_rel,
                                               std::memory_order_acquire));
    // On a contended line (one that has lost copies to writes) a write to
    // a still-valid copy is a cache hit, not remote traffic.
    counted_remote = is_remote && !((state & kContendedLine) && held);
    line.listed = 0;  // the list holds only `tag`, if anyone
    if (!mine && !listHolder(line, tag))
      line.state.fetch_and(~kListedHolders, std::memory_order_acq_rel);
    if (copies) {
      invalidated = true;
      countInvalidations(line, copies, words, tag, weight);
    }
    if (++line.writes >= g_word_detail_writes.load(std::memory_order_relaxed) && !line.words) {
      line.words = internalNewDetail<WordDetail>();
      if (line.words) line.epoch.fetch_add(1, std::memory_order_release);
    }
  } else {
    const uint64_t state = line.state.load(std::memory_order_acquire);
    // On a contended line a re-read of a still-valid copy is a cache hit.
    if (is_remote && (state & kContendedLine) && holds(line, state, tag)) counted_remote = false;
    addHolder(line, tag);
  }
  if (line.words) noteWords(line, words, tag, is_write);
  if ((counted_remote || invalidated) && pc) countLineSite(line, pc, weight);
  if (slot) rememberLine(*slot, index, line, words, kept_noted);
  return counted_remote;
}

// What the model makes of an access whose words the thread's slot knows to
// be noted already (so the word detail has nothing to change): only the
// holder state, updated with one compare-and-swap, and the invalidation
// counts, which are atomics. For threads with a mask bit (`mine`); a write
// to a line whose holders include listed threads returns false (the list
// is kept under the lock). Otherwise sets `remote` (the counted remote
// accesses of the `repeat`), `line_site` (the first access is a miss or an
// invalidating write: the line's site, as in lineAccess) and `page_sites`
// (the other counted ones, for the page's remote sites). The first access
// counts `weight` times (line_windows.h).
bool lineAccessNoted(LineShare &line, uint64_t mine, uint32_t tag, uint16_t words, bool is_write,
                     bool is_remote, uint64_t repeat, uint32_t weight, uint64_t *remote,
                     bool *line_site, uint64_t *page_sites) {
  uint64_t state = line.state.load(std::memory_order_acquire), next;
  uint32_t copies = 0;
  for (;;) {
    const bool held = (state & mine) != 0;
    const uint64_t others = state & kHolderMask & ~mine;
    if (held && (!is_write || (!others && !(state & kListedHolders)))) {
      // A hit: a re-read of a valid copy, a write to the only copy.
      *remote = is_remote && !(state & kContendedLine) ? repeat - 1 + weight : 0;
      *line_site = false;
      *page_sites = *remote;
      return true;
    }
    if (is_write) {
      if (state & kListedHolders) return false;
      copies = maskedHolders(others);
      next = mine | (state & kContendedLine) | (copies ? kContendedLine : 0);
    } else {
      next = state | mine;
    }
    if (line.state.compare_exchange_weak(state, next, std::memory_order_acq_rel,
                                         std::memory_order_acquire))
      break;
  }
  // A miss (or a write to a copy others hold too) on a line that had lost
  // copies to writes counts when the thread held no valid copy: as in
  // lineAccess.
  const bool held = (state & mine) != 0;
  const bool first = is_remote && !((state & kContendedLine) && held);
  if (copies) countInvalidations(line, copies, words, tag, weight);
  // The repeats find the copy this access left: on a contended line hits.
  const uint64_t extra = is_remote && !(next & kContendedLine) ? repeat - 1 : 0;
  *remote = (first ? weight : 0) + extra;
  *line_site = first || copies;
  *page_sites = extra;
  return true;
}

// ---- Single-user mode (PageDetail::sole_user) ----

// The first thread to use the page since it became shared takes it over.
uint32_t claimSingleUser(PageDetail *d, uint32_t tag) {
  SpinLockGuard guard(d->threads_lock);
  uint32_t user = d->sole_user.load(std::memory_order_relaxed);
  if (user != 0) return user;
  // Lines reset for a new object keep their word tables, and the line model
  // notes words in an existing table from the first access on.
  uint64_t words = 0;
  for (unsigned i = 0; i < kLinesPerPage; ++i) {
    LineShare *l = d->lines[i].load(std::memory_order_acquire);
    if (l && l->words) words |= uint64_t(1) << i;
  }
  d->su_words.store(words, std::memory_order_relaxed);
  d->sole_user.store(tag, std::memory_order_release);
  return tag;
}

// A single-user line's writes are counted up to the word-detail threshold
// (they only decide when word detail starts), whatever the order of hooks.
inline uint64_t suWritesCap() {
  uint64_t threshold = g_word_detail_writes.load(std::memory_order_relaxed);
  return threshold < 0xffff ? threshold : 0xffff;
}

// What the line model does for an access to a tracked line when one thread
// holds every copy: count writes toward word detail, note words.
inline void singleUserLine(PageDetail &d, unsigned index, uint16_t words, bool is_write,
                           uint64_t repeat) {
  uint64_t bit = uint64_t(1) << index;
  uint64_t lines = d.su_lines.load(std::memory_order_relaxed);
  if (!(lines & bit)) d.su_lines.store(lines | bit, std::memory_order_relaxed);
  uint64_t with_words = d.su_words.load(std::memory_order_relaxed);
  // Writes count only toward the word-detail threshold: not past it.
  if (is_write && !(with_words & bit)) {
    const uint64_t threshold = suWritesCap();
    uint64_t w = d.su_writes[index].load(std::memory_order_relaxed) +
                 (repeat < threshold ? repeat : threshold);
    if (w > threshold) w = threshold;
    d.su_writes[index].store(uint16_t(w), std::memory_order_relaxed);
    if (w >= g_word_detail_writes.load(std::memory_order_relaxed)) {
      with_words |= bit;
      d.su_words.store(with_words, std::memory_order_relaxed);
    }
  }
  if (with_words & bit) {
    d.su_noted[index].store(d.su_noted[index].load(std::memory_order_relaxed) | words,
                            std::memory_order_relaxed);
    if (is_write)
      d.su_written[index].store(d.su_written[index].load(std::memory_order_relaxed) | words,
                                std::memory_order_relaxed);
  }
}

// singleUserLine for `lines` lines from `first` on, each accessed `repeat`
// times at the words `words`: what is per page done once, what is per line
// in a tight loop.
void singleUserLines(PageDetail &d, unsigned first, unsigned lines, uint16_t words,
                     bool is_write, uint64_t repeat) {
  const uint64_t bits = (lines >= 64 ? ~uint64_t(0) : (uint64_t(1) << lines) - 1) << first;
  uint64_t touched = d.su_lines.load(std::memory_order_relaxed);
  if ((touched & bits) != bits) d.su_lines.store(touched | bits, std::memory_order_relaxed);
  uint64_t with_words = d.su_words.load(std::memory_order_relaxed);
  // Writes count only toward the word-detail threshold: lines past it are
  // skipped (a streaming loop's second pass has none left to count).
  if (is_write && (bits & ~with_words)) {
    const uint32_t threshold = g_word_detail_writes.load(std::memory_order_relaxed);
    const uint64_t cap = suWritesCap();
    const uint64_t add = repeat < cap ? repeat : cap;
    for (uint64_t b = bits & ~with_words; b; b &= b - 1) {
      unsigned i = unsigned(__builtin_ctzll(b));
      uint64_t w = d.su_writes[i].load(std::memory_order_relaxed) + add;
      if (w > cap) w = cap;
      d.su_writes[i].store(uint16_t(w), std::memory_order_relaxed);
      if (w >= threshold) with_words |= uint64_t(1) << i;
    }
    if (with_words != d.su_words.load(std::memory_order_relaxed))
      d.su_words.store(with_words, std::memory_order_relaxed);
  }
  // Lines whose noted (and, for writes, written) words are all set already
  // have nothing to add: a streaming loop finds every line full after its
  // first pass.
  const uint64_t noted_full = d.su_noted_full.load(std::memory_order_relaxed);
  const uint64_t written_full = d.su_written_full.load(std::memory_order_relaxed);
  uint64_t todo = with_words & bits & ~(is_write ? noted_full & written_full : noted_full);
  if (!todo) return;
  uint64_t new_noted_full = noted_full, new_written_full = written_full;
  for (uint64_t b = todo; b; b &= b - 1) {
    unsigned i = unsigned(__builtin_ctzll(b));
    const uint16_t noted = uint16_t(d.su_noted[i].load(std::memory_order_relaxed) | words);
    d.su_noted[i].store(noted, std::memory_order_relaxed);
    if (noted == 0xffff) new_noted_full |= uint64_t(1) << i;
    if (is_write) {
      const uint16_t written = uint16_t(d.su_written[i].load(std::memory_order_relaxed) | words);
      d.su_written[i].store(written, std::memory_order_relaxed);
      if (written == 0xffff) new_written_full |= uint64_t(1) << i;
    }
  }
  if (new_noted_full != noted_full) d.su_noted_full.store(new_noted_full, std::memory_order_relaxed);
  if (new_written_full != written_full)
    d.su_written_full.store(new_written_full, std::memory_order_relaxed);
}

// ---- The single user's reader (PageDetail::reader) ----

// Whether `tag`, reading a page whose single user is `user`, is the page's
// reader (the first thread to read it there becomes the reader).
bool isReader(PageDetail *d, uint32_t user, uint32_t tag) {
  uint32_t reader = d->reader.load(std::memory_order_acquire);
  if (reader == 0) {
    SpinLockGuard guard(d->threads_lock);  // as leaveSingleUser: not after the mode ended
    if (d->sole_user.load(std::memory_order_relaxed) != user) return false;
    reader = d->reader.load(std::memory_order_relaxed);
    if (reader == 0) {
      d->reader.store(tag, std::memory_order_release);
      reader = tag;
    }
  }
  return reader == tag;
}

// What the line model does for the reader's reads of `lines` lines from
// `first` on at the words `words`: it holds a copy of each, and its words
// are noted on lines with word detail. (Nothing to count: no copy of a line
// the reader holds has been invalidated.)
inline void readerLines(PageDetail &d, unsigned first, unsigned lines, uint16_t words) {
  const uint64_t bits = (lines >= 64 ? ~uint64_t(0) : (uint64_t(1) << lines) - 1) << first;
  const uint64_t held = d.reader_lines.load(std::memory_order_relaxed);
  if ((held & bits) != bits) d.reader_lines.store(held | bits, std::memory_order_relaxed);
  for (uint64_t b = bits & d.su_words.load(std::memory_order_relaxed); b; b &= b - 1) {
    const unsigned i = unsigned(__builtin_ctzll(b));
    const uint16_t noted = d.reader_noted[i].load(std::memory_order_relaxed);
    if (uint16_t(noted | words) != noted)
      d.reader_noted[i].store(uint16_t(noted | words), std::memory_order_relaxed);
  }
}

// Whether a write of the single user to the lines `bits` keeps the mode: it
// does unless the reader holds a copy of one of them.
inline bool singleUserMayWrite(const PageDetail &d, uint64_t bits) {
  return (d.reader_lines.load(std::memory_order_relaxed) & bits) == 0;
}

// The lines of the page a range from `at` reaches (`count` elements of
// `size` bytes, `step` apart), as a mask; every line between the first and
// the last, whatever the stride skips.
uint64_t rangeLines(uintptr_t at, uint64_t step, uint64_t count, uint64_t size) {
  if (count == 0) return 0;
  const uintptr_t page_last = at | (kPageSize - 1);
  const uint64_t room = page_last - at;
  const uintptr_t last = (step && count - 1 > room / step) || (count - 1) * step + size - 1 > room
                             ? page_last
                             : at + (count - 1) * step + size - 1;
  const unsigned first_line = unsigned((at >> kLineShift) % kLinesPerPage);
  const unsigned last_line = unsigned((last >> kLineShift) % kLinesPerPage);
  const unsigned n = last_line - first_line + 1;
  return (n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1) << first_line;
}

// Another thread arrives: build the LineShares the line model would hold now
// (every line the single user touched held by it, every line the reader read
// held by the reader, their words noted) and leave the mode for good (until
// the page is reset).
void leaveSingleUser(PageDetail *d) {
  SpinLockGuard guard(d->threads_lock);
  uint32_t user = d->sole_user.load(std::memory_order_relaxed);
  if (user == kManyUsers) return;
  d->sole_user.store(kManyUsers, std::memory_order_release);
  if (user == 0) return;
  const uint64_t with_words = d->su_words.load(std::memory_order_relaxed);
  const uint64_t used = d->su_lines.load(std::memory_order_relaxed);
  const uint32_t reader = d->reader.load(std::memory_order_relaxed);
  const uint64_t read = reader ? d->reader_lines.load(std::memory_order_relaxed) : 0;
  for (uint64_t lines = used | read; lines; lines &= lines - 1) {
    unsigned i = unsigned(__builtin_ctzll(lines));
    const uint64_t bit = uint64_t(1) << i;
    LineShare *l = lineFor(d, i, true);
    if (!l) continue;
    SpinLockGuard line_guard(l->lock);
    // (A record reset for a new object keeps nothing but its word table.)
    l->state.fetch_and(kContendedLine, std::memory_order_acq_rel);
    l->listed = 0;
    if (used & bit) addHolder(*l, user);
    if (read & bit) addHolder(*l, reader);
    l->writes = d->su_writes[i].load(std::memory_order_relaxed);
    const uint16_t noted = d->su_noted[i].load(std::memory_order_relaxed);
    const uint16_t written = d->su_written[i].load(std::memory_order_relaxed);
    const uint16_t read_words = (read & bit) ? d->reader_noted[i].load(std::memory_order_relaxed) : 0;
    if (with_words & bit) {
      if (!l->words) l->words = internalNew<WordDetail>();
      if (l->words) {
        // As noteWords would for the user's words, then the reader's.
        if (noted) noteWords(*l, noted, user, false);
        if (written) noteWords(*l, written, user, true);
        if (read_words) noteWords(*l, read_words, reader, false);
      }
    }
    l->epoch.fetch_add(1, std::memory_order_release);
  }
}

}  // namespace

void setWordDetailThreshold(uint32_t writes) {
  g_word_detail_writes.store(writes, std::memory_order_relaxed);
}

PageAccessTotals pageAccessTotals(const PageDetail &d) {
  PageAccessTotals totals;
  forEachPageThreadCounts(const_cast<PageDetail &>(d), [&](uint32_t, PageThreadCounts &c) {
    uint64_t writes = c.writes.load(std::memory_order_relaxed);
    totals.writes += writes;
    totals.reads += c.accesses.load(std::memory_order_relaxed) - writes;
  });
  return totals;
}

uint64_t pageReadsSinceWrite(const PageDetail &d) {
  PageAccessTotals totals = pageAccessTotals(d);
  return totals.writes ? d.reads_since_write.load(std::memory_order_relaxed) : totals.reads;
}

uint64_t pageThreadAccesses(const PageDetail &d, uint32_t tag) {
  uint64_t n = 0;
  forEachPageThread(d, [&](uint32_t t, uint64_t a) {
    if (t == tag) n = a;
  });
  return n;
}

bool trackSharedAccess(uint32_t tag, PageDetail *d, uintptr_t addr, uint32_t size,
                       bool is_write, bool is_remote, uintptr_t pc) {
  if (__builtin_expect(d->sole_user.load(std::memory_order_acquire) != kManyUsers, 0))
    leaveSingleUser(d);  // this path keeps every line in LineShares
  PageThreadCounts *use = findUse(d, tag);
  if (!use) use = addUse(d, tag);
  if (use) {
    use->accesses.fetch_add(1, std::memory_order_relaxed);
    if (is_write) use->writes.fetch_add(1, std::memory_order_relaxed);
  }

  if (is_write) {
    if (!d->written_while_shared.load(std::memory_order_relaxed))
      d->written_while_shared.store(true, std::memory_order_relaxed);
    if (d->reads_since_write.load(std::memory_order_relaxed) != 0)
      d->reads_since_write.store(0, std::memory_order_relaxed);
  } else if (d->written_while_shared.load(std::memory_order_relaxed)) {
    d->reads_since_write.fetch_add(1, std::memory_order_relaxed);
  }

  unsigned index = unsigned((addr >> kLineShift) % kLinesPerPage);
  // Lines of pages never written while shared need no copy tracking: without
  // a write nothing is invalidated. Once the page sees writes, readers are
  // tracked too, so a later write counts their copies.
  bool track_line = d->written_while_shared.load(std::memory_order_relaxed);
  LineShare *line = track_line ? lineFor(d, index, true) : nullptr;
  bool counted_remote =
      line ? lineAccess(*line, tag, lineWordMask(addr, size), is_write, is_remote, pc, nullptr, index)
           : is_remote;
  if (counted_remote) d->line_remote[index].fetch_add(1, std::memory_order_relaxed);
  if (!line && counted_remote && pc) countSite(d, pc);
  return counted_remote;
}

// ---- Through the thread's cache (shared_page_cache.h) ----

namespace {

// Remote sites buffered in the slot go to the page's sites (not the line's:
// the line lock is what the cache avoids).
// Direct-mapped on the instruction: one compare per access; a colliding
// site sends the old one's count to the page.
void bufferSite(SharedPageSlot &s, uintptr_t pc, uint64_t n) {
  BufferedSite &b = s.sites[(pc * 0x9E3779B97F4A7C15ull) >> (64 - kBufferedSiteBits)];
  if (__builtin_expect(b.pc != pc, 0)) {
    if (b.count) countSite(s.page, b.pc, b.count);
    b.pc = pc;
    b.count = 0;
  }
  b.count += n;
}

// Gives a buffered line site to its line.
void handOverLineSite(PageDetail *d, BufferedLineSite &b) {
  if (!b.count) return;
  if (LineShare *l = d->lines[b.line].load(std::memory_order_acquire)) {
    SpinLockGuard guard(l->lock);
    countLineSite(*l, b.pc, b.count);
  }
  b.count = 0;
}

// `n` misses or invalidating writes of the instruction `pc` on line `index`,
// for the line's sites. The entries are looked through in turn (they share
// one cache line): a loop body fights over a page from a few places, and a
// direct-mapped table whose two hot instructions collided handed over, under
// the line's lock, at every other access. The count goes to the last line
// the instruction reached on the page (an instruction that takes lines at
// random, like a histogram's increment, would otherwise hand over at nearly
// every access; the lines of one page mostly belong to one object).
void bufferLineSite(SharedPageSlot &s, unsigned index, uintptr_t pc, uint64_t n) {
  BufferedLineSite *use = nullptr;
  for (BufferedLineSite &b : s.line_sites) {
    if (b.pc == pc) {
      use = &b;
      break;
    }
    if (!use || b.count < use->count) use = &b;  // empty, or the weakest
  }
  if (__builtin_expect(use->pc != pc || use->count + n > UINT32_MAX, 0)) {
    handOverLineSite(s.page, *use);
    use->pc = pc;
  }
  use->line = index;
  use->count += uint32_t(n);
}

// The thread's `n` reads or writes of the slot's page; a write also marks
// the page written while shared (from then on its lines track holders).
inline void countInSlot(SharedPageSlot &s, PageDetail *d, bool is_write, uint64_t n) {
  if (is_write) {
    s.writes += n;
    s.reads_after_own_write = 0;
    if (!d->written_while_shared.load(std::memory_order_relaxed))
      d->written_while_shared.store(true, std::memory_order_relaxed);
  } else {
    s.reads += n;
    s.reads_after_own_write += n;
  }
}

void addLineRemote(SharedPageSlot &s, unsigned index, uint64_t n) {
  uint64_t sum = s.line_remote[index] + n;
  if (__builtin_expect(sum > UINT32_MAX, 0)) {
    // A slot that stays long on one hot line: hand the count over early.
    s.page->line_remote[index].fetch_add(sum, std::memory_order_relaxed);
    sum = 0;
  }
  s.line_remote[index] = uint32_t(sum);
  if (sum > s.line_remote_bound) s.line_remote_bound = sum;
  s.remote_lines |= uint64_t(1) << index;
}

// Empties a slot. Only what the slot's masks say is in use is cleared: the
// per-line arrays are read only under their bit (known_lines, remote_lines),
// so a slot thrashed by random accesses does not clear a kilobyte each time.
void resetSlot(SharedPageSlot &s) {
  s.page = nullptr;
  s.generation = 0;
  s.reads = s.writes = s.reads_after_own_write = 0;
  for (uint64_t lines = s.remote_lines; lines; lines &= lines - 1)
    s.line_remote[__builtin_ctzll(lines)] = 0;
  s.remote_lines = 0;
  s.line_remote_bound = 0;
  for (BufferedSite &b : s.sites) b = BufferedSite();
  for (BufferedLineSite &b : s.line_sites) b = BufferedLineSite();
  s.known_lines = s.has_words = s.sampled_lines = 0;
}

// addLineRemote for `lines` lines from `first` on, `n` accesses each.
void addLinesRemote(SharedPageSlot &s, unsigned first, unsigned lines, uint64_t n) {
  if (__builtin_expect(s.line_remote_bound + n > UINT32_MAX, 0)) {
    for (unsigned i = first; i < first + lines; ++i) addLineRemote(s, i, n);
    return;
  }
  s.line_remote_bound += n;
  uint32_t *counts = s.line_remote + first;  // a plain array: the loop vectorises
  const uint32_t add = uint32_t(n);
  for (unsigned i = 0; i < lines; ++i) counts[i] += add;
  s.remote_lines |= (lines >= 64 ? ~uint64_t(0) : (uint64_t(1) << lines) - 1) << first;
}

void prefetchFlushTargets(const SharedPageSlot &s, PageDetail *d) {
  unsigned i = 0;
  for (uint64_t lines = s.remote_lines; lines && i < 4; lines &= lines - 1, ++i)
    __builtin_prefetch(&d->line_remote[__builtin_ctzll(lines)], 1);
  if (s.remote_lines == ~uint64_t(0)) __builtin_prefetch(&d->line_remote_even, 1);
  if (s.remote_lines) __builtin_prefetch(&d->sites, 1);  // remote sites come with them
}

void flushSlot(SharedPageSlot &s, uint32_t tag) {
  PageDetail *d = s.page;
  if (!d) return;
  if (d->generation.load(std::memory_order_acquire) == s.generation) {
    // The counters below are mostly cold (a page not flushed for a while):
    // ask for all their lines first, so the misses overlap instead of
    // each atomic waiting for its own.
    PageThreadCounts *use = nullptr;
    uint64_t n = s.reads + s.writes;
    if (n) {
      use = findUse(d, tag);
      if (!use) use = addUse(d, tag);
      if (use) __builtin_prefetch(use, 1);
    }
    prefetchFlushTargets(s, d);
    if (n) {
      if (use) {
        use->accesses.fetch_add(n, std::memory_order_relaxed);
        if (s.writes) use->writes.fetch_add(s.writes, std::memory_order_relaxed);
      }
    }
    if (s.writes) {
      // Order within the buffer is known only for this thread's own
      // accesses: reads after its last write count as reads since a write.
      d->reads_since_write.store(s.reads_after_own_write, std::memory_order_relaxed);
    } else if (s.reads && d->written_while_shared.load(std::memory_order_relaxed)) {
      // (Before any write every read is one since a write: not counted
      // here, on a line all readers would write.)
      d->reads_since_write.fetch_add(s.reads, std::memory_order_relaxed);
    }
    uint64_t remote_lines = s.remote_lines;
    if (remote_lines == ~uint64_t(0)) {
      // Every line: the part they all have in common goes in one count.
      uint32_t even = s.line_remote[0];
      for (unsigned i = 1; i < kLinesPerPage; ++i) even = std::min(even, s.line_remote[i]);
      if (even) {
        d->line_remote_even.fetch_add(even, std::memory_order_relaxed);
        remote_lines = 0;
        for (unsigned i = 0; i < kLinesPerPage; ++i)
          if ((s.line_remote[i] -= even) != 0) remote_lines |= uint64_t(1) << i;
      }
    }
    for (uint64_t lines = remote_lines; lines; lines &= lines - 1) {
      unsigned i = unsigned(__builtin_ctzll(lines));
      d->line_remote[i].fetch_add(s.line_remote[i], std::memory_order_relaxed);
    }
    for (BufferedSite &b : s.sites)
      if (b.count) countSite(d, b.pc, b.count);
    for (BufferedLineSite &b : s.line_sites) handOverLineSite(d, b);
  }
  resetSlot(s);
}

// Slot arrays of exited threads, reused by new ones. They are never given
// back to the system, so the report can flush a running thread's cache
// without racing with its exit (thread churn costs no more memory than the
// most threads alive at once). An array is preceded by a header that says
// how many slots it has; a small one is followed by the tags of the large
// cache it stands in for.
struct SlotArrayHeader {
  uint32_t count;
};
constexpr size_t kSlotHeaderBytes = 64;  // keeps the slots cache-line aligned
static_assert(sizeof(SlotArrayHeader) <= kSlotHeaderBytes, "");

struct SlotPool {
  SpinLock lock;
  struct Free {
    Free *next;
  } *small = nullptr, *large = nullptr;
  unsigned large_made = 0;
};
SlotPool g_slot_pool;

const PageDetail **largeTagsOf(SharedPageSlot *slots) {
  return reinterpret_cast<const PageDetail **>(slots + kSharedPageSlots);
}

size_t slotArrayBytes(unsigned count) {
  size_t tags = count == kSharedPageSlots ? kLargeSharedPageSlots * sizeof(PageDetail *) : 0;
  return kSlotHeaderBytes + count * sizeof(SharedPageSlot) + tags;
}

// A fresh array of `count` slots (kSharedPageSlots or kLargeSharedPageSlots),
// or nullptr.
SharedPageSlot *takeSlots(unsigned count) {
  const bool large = count == kLargeSharedPageSlots;
  void *mem = nullptr;
  {
    SpinLockGuard guard(g_slot_pool.lock);
    SlotPool::Free *&head = large ? g_slot_pool.large : g_slot_pool.small;
    if (SlotPool::Free *f = head) {
      head = f->next;
      mem = f;
    } else if (large) {
      if (g_slot_pool.large_made == kMaxLargeSharedPageCaches) return nullptr;
      ++g_slot_pool.large_made;
    }
  }
  if (!mem) mem = internalAlloc(slotArrayBytes(count));
  if (!mem) {
    if (large) {
      SpinLockGuard guard(g_slot_pool.lock);
      --g_slot_pool.large_made;
    }
    return nullptr;
  }
  static_cast<SlotArrayHeader *>(mem)->count = count;
  auto *slots = reinterpret_cast<SharedPageSlot *>(static_cast<char *>(mem) + kSlotHeaderBytes);
  for (unsigned i = 0; i < count; ++i) new (&slots[i]) SharedPageSlot();
  if (!large) memset(largeTagsOf(slots), 0, kLargeSharedPageSlots * sizeof(PageDetail *));
  return slots;
}

void giveBackSlots(SharedPageSlot *slots) {
  const bool large = sharedPageSlotCount(slots) == kLargeSharedPageSlots;
  auto *f = reinterpret_cast<SlotPool::Free *>(reinterpret_cast<char *>(slots) - kSlotHeaderBytes);
  SpinLockGuard guard(g_slot_pool.lock);
  SlotPool::Free *&head = large ? g_slot_pool.large : g_slot_pool.small;
  f->next = head;
  head = f;
}

void useSlots(SharedPageCache &c, SharedPageSlot *slots) {
  const unsigned count = sharedPageSlotCount(slots);
  for (HeldLineRead &h : c.held) h = HeldLineRead();
  c.slots = slots;
  c.set_mask = count / 2 - 1;
  for (uint8_t &bit : c.lru) bit = 0;
  c.large_tags = count == kSharedPageSlots ? largeTagsOf(slots) : nullptr;
  c.window_misses = c.window_would_hit = 0;
}

// A miss of the small cache: would a large one have hit? After a window of
// misses most of which it would have turned into hits, switch to one.
// Returns whether the cache changed.
bool considerGrowing(SharedPageCache &c, uint32_t tag, const PageDetail *d) {
  constexpr uint32_t kWindow = 4096;
  const PageDetail *&seen =
      c.large_tags[(reinterpret_cast<uintptr_t>(d) >> 11) % kLargeSharedPageSlots];
  if (seen == d)
    ++c.window_would_hit;
  else
    seen = d;
  if (++c.window_misses < kWindow) return false;
  const bool grow = c.window_would_hit > kWindow / 2;
  c.window_misses = c.window_would_hit = 0;
  if (!grow) return false;
  SharedPageSlot *large = takeSlots(kLargeSharedPageSlots);
  if (!large) return false;
  flushSharedPageCache(c, tag, true);
  useSlots(c, large);
  return true;
}

// Two-way set associative on the detail's address (details are 2 KiB
// blocks of the internal allocator, so neighbours land in different sets).
inline unsigned setOf(const SharedPageCache &c, const PageDetail *d) {
  return unsigned(reinterpret_cast<uintptr_t>(d) >> 11) & c.set_mask;
}

inline SharedPageSlot *slotFor(SharedPageCache &c, uint32_t tag, PageDetail *d);

// A hit on the slot `s` of set `set`: the set's other way is replaced next.
inline void markUsed(SharedPageCache &c, unsigned set, const SharedPageSlot *s) {
  c.lru[set] = s == &c.slots[2 * set] ? 1 : 0;
}

// slotFor when the page is in neither way of its set (or the cache has no
// slots yet): kept out of line, so that the hit path inlines into the hooks.
__attribute__((noinline)) SharedPageSlot *slotForMiss(SharedPageCache &c, uint32_t tag,
                                                      PageDetail *d) {
  if (c.slots == nullptr) {
    SharedPageSlot *slots = takeSlots(kSharedPageSlots);
    if (!slots) return nullptr;
    useSlots(c, slots);  // empty: the page takes a slot below
  }
  if (__builtin_expect(c.large_tags != nullptr, 0) && considerGrowing(c, tag, d))
    return slotFor(c, tag, d);
  unsigned set = setOf(c, d);
  SharedPageSlot *s = &c.slots[2 * set + c.lru[set]];
  c.lru[set] ^= 1;
  flushSlot(*s, tag);
  s->page = d;
  s->generation = d->generation.load(std::memory_order_acquire);
  return s;
}

inline SharedPageSlot *slotFor(SharedPageCache &c, uint32_t tag, PageDetail *d) {
  if (__builtin_expect(c.slots == nullptr, 0)) return slotForMiss(c, tag, d);
  unsigned set = setOf(c, d);
  SharedPageSlot *way = &c.slots[2 * set];
  SharedPageSlot *s;
  if (way[0].page == d) {
    s = &way[0];
  } else if (way[1].page == d) {
    s = &way[1];
  } else {
    return slotForMiss(c, tag, d);
  }
  markUsed(c, set, s);
  if (__builtin_expect(s->generation != d->generation.load(std::memory_order_acquire), 0)) {
    // The page was reset for a new object since: what the slot holds is stale.
    resetSlot(*s);
    s->page = d;
    s->generation = d->generation.load(std::memory_order_acquire);
  }
  return s;
}

}  // namespace

namespace {
uint64_t countLineInSlot(SharedPageSlot &slot, uint32_t tag, PageDetail *d, unsigned index,
                         uint16_t words, bool is_write, bool is_remote, uintptr_t pc,
                         uint64_t repeat, HeldLineRead *held = nullptr);

// Whether the access of `repeat` to line `index` of the slot's page falls
// outside the time windows of a line modelled in them (line_windows.h): then
// it is only counted as a read or write of the page (by the caller, before)
// and noted as skipped. Asked before countLineInSlot, which models only
// accesses that pass here. The slot marks a line sampled only once the page
// left single-user mode and was written while shared, which lasts until its
// next object (a new generation, and slotFor empties the slot): the line
// model's checks before its windows would pass, and the commonest access to
// a line threads fight over costs no call into it.
inline bool skippedOutsideWindow(const SharedPageSlot &s, unsigned index, uint64_t repeat) {
  if (!((s.sampled_lines >> index) & 1) || lineWindowOpen()) return false;
  noteLineSkipped(repeat);
  return true;
}

// The read of `words` of the line `h` remembers, by thread `tag`, when it is
// still the hit it was (HeldLineRead): counted as countLineInSlot's lock-free
// path counts a hit, into `*remote`. False, counting nothing, otherwise.
inline bool readHeldLine(SharedPageCache &c, HeldLineRead &h, uint32_t tag, PageDetail *d,
                         uint16_t words, bool is_remote, uintptr_t pc, uint64_t *remote) {
  SharedPageSlot &s = *h.slot;
  if (s.page != d || (words & ~h.words) ||
      s.generation != d->generation.load(std::memory_order_acquire))
    return false;
  const LineShare &l = *h.line;
  if (l.epoch.load(std::memory_order_acquire) != h.epoch) return false;
  const uint64_t state = l.state.load(std::memory_order_acquire);
  if (!(state & holderBit(tag)) || (l.sampling.load(std::memory_order_relaxed) & kLineSampledNow))
    return false;
  markUsed(c, setOf(c, d), &s);
  countInSlot(s, d, false, 1);
  *remote = is_remote && !(state & kContendedLine) ? 1 : 0;
  if (*remote) {
    addLineRemote(s, h.index, 1);
    if (pc) bufferSite(s, pc, 1);
  }
  return true;
}
}  // namespace

uint64_t countSharedAccess(SharedPageCache &cache, uint32_t tag, PageDetail *d, uintptr_t addr,
                           uint16_t words, bool is_write, bool is_remote, uintptr_t pc,
                           uint64_t repeat) {
  const unsigned index = unsigned((addr >> kLineShift) % kLinesPerPage);
  HeldLineRead *held = nullptr;
  if (!is_write && repeat == 1) {
    held = &cache.held[(addr >> kLineShift) % kHeldLineReads];
    uint64_t remote;
    if (held->page == d && held->index == index &&
        readHeldLine(cache, *held, tag, d, words, is_remote, pc, &remote))
      return remote;
  }
  SharedPageSlot *s = slotFor(cache, tag, d);
  if (__builtin_expect(s == nullptr, 0)) {
    // No memory for the cache: the exact path, access by access.
    uint64_t counted = 0;
    uintptr_t first = addr & ~(kLineSize - 1);
    unsigned lo = unsigned(__builtin_ctz(words)), hi = 31u - unsigned(__builtin_clz(words));
    for (uint64_t i = 0; i < repeat; ++i)
      counted += trackSharedAccess(tag, d, first + (lo << kWordShift), (hi - lo + 1) << kWordShift,
                                   is_write, is_remote, pc);
    return counted;
  }
  countInSlot(*s, d, is_write, repeat);
  if (skippedOutsideWindow(*s, index, repeat)) return 0;
  return countLineInSlot(*s, tag, d, index, words, is_write, is_remote, pc, repeat, held);
}

namespace {

// countSharedAccess once the accesses are counted in the slot `s` of `d`:
// the line model for line `index`, for an access that passed
// skippedOutsideWindow.
uint64_t countLineInSlot(SharedPageSlot &slot, uint32_t tag, PageDetail *d, unsigned index,
                         uint16_t words, bool is_write, bool is_remote, uintptr_t pc,
                         uint64_t repeat, HeldLineRead *held) {
  SharedPageSlot *s = &slot;
  uint64_t bit = uint64_t(1) << index;
  uint64_t counted = is_remote ? repeat : 0;
  uint32_t user = d->sole_user.load(std::memory_order_acquire);
  if (__builtin_expect(user != kManyUsers, 1)) {
    if (user == 0) user = claimSingleUser(d, tag);
    if (user == tag ? !is_write || singleUserMayWrite(*d, bit)
                    : !is_write && isReader(d, user, tag)) {
      // No copy was ever invalidated: every remote access counts.
      if (d->written_while_shared.load(std::memory_order_relaxed)) {
        if (user == tag)
          singleUserLine(*d, index, words, is_write, repeat);
        else
          readerLines(*d, index, 1, words);
      }
      if (counted) {
        addLineRemote(*s, index, counted);
        if (pc) bufferSite(*s, pc, counted);
      }
      return counted;
    }
    leaveSingleUser(d);
  }
  if (d->written_while_shared.load(std::memory_order_relaxed)) {
    // A line modelled in time windows (line_windows.h), in one (the caller
    // passed skippedOutsideWindow): the access stands for those the thread
    // skipped. What the slot knows of the line may be stale by up to a
    // window (the line is not read here); the next modelled access brings
    // it up to date.
    const uint32_t weight = s->sampled_lines & bit ? lineWindowWeight(repeat) : 1;
    LineShare *line = d->lines[index].load(std::memory_order_acquire);
    const uint64_t mine = holderBit(tag);
    if (line && is_write) prefetchForWrite(&line->state);
    if (line && mine && (s->known_lines & bit) &&
        line->epoch.load(std::memory_order_acquire) == s->line_epoch[index]) {
      // The words are noted already (writes: and marked written; a line
      // without word detail counts writes toward it under the lock): only
      // the holders change, if anything.
      const bool has_words = (s->has_words & bit) != 0;
      const bool noted = is_write ? has_words && (words & ~s->written_words[index]) == 0
                                  : !has_words || (words & ~s->noted_words[index]) == 0;
      bool line_site = false;
      uint64_t page_sites = 0;
      if (noted && lineAccessNoted(*line, mine, tag, words, is_write, is_remote, repeat, weight,
                                   &counted, &line_site, &page_sites)) {
        rememberSampling(*s, bit, *line);
        if (counted) addLineRemote(*s, index, counted);
        if (pc) {
          if (line_site) bufferLineSite(*s, index, pc, weight);
          if (page_sites) bufferSite(*s, pc, page_sites);
        }
        if (held && weight == 1 && !(s->sampled_lines & bit) &&
            (line->state.load(std::memory_order_relaxed) & mine)) {
          // The thread now holds a copy, its words noted: the next read
          // of them is a hit while the line's epoch stays.
          *held = HeldLineRead{d, s, line, s->line_epoch[index],
                               has_words ? s->noted_words[index] : uint16_t(0xffff),
                               uint8_t(index)};
        }
        return counted;
      }
    }
    if (!line) line = lineFor(d, index, true);
    if (line) {
      bool first = lineAccess(*line, tag, words, is_write, is_remote, pc, s, index, weight);
      // The repeats find the copy this access left: on a contended line
      // they are hits. (lineAccess recorded the first one's site.)
      const bool contended = (line->state.load(std::memory_order_relaxed) & kContendedLine) != 0;
      uint64_t extra = is_remote && !contended ? repeat - 1 : 0;
      counted = (first ? weight : 0) + extra;
      if (counted) addLineRemote(*s, index, counted);
      if (extra && pc) bufferSite(*s, pc, extra);
      return counted;
    }
  }
  if (counted) {
    addLineRemote(*s, index, counted);
    if (pc) bufferSite(*s, pc, counted);
  }
  return counted;
}

// The line pattern of a range whose stride is a power of two dividing the
// line, with elements no wider than the stride: every line holds elements
// at the same offsets (`words`, `per_line` of them), and when wide elements
// cross lines, the last one of each line leaves `tail_words` in the next
// (one more access there). Such ranges are counted a whole line at a time.
struct PeriodicLines {
  bool periodic = false;
  uint64_t per_line = 0;
  uint16_t words = 0, tail_words = 0;
  bool crosses = false;

  PeriodicLines(uintptr_t at, uint64_t step, uint64_t size) {
    periodic = step && step <= kLineSize && (step & (step - 1)) == 0 && size <= step;
    if (!periodic) return;
    per_line = kLineSize / step;
    const uintptr_t first = at & (step - 1);
    for (uintptr_t o = first; o < kLineSize; o += step) words |= lineWordMask(o, uint32_t(size));
    crosses = size > kSingleAccessBytes && first + size > step;
    if (crosses) tail_words = lineWordMask(0, uint32_t(first + size - step));
  }
  // Whether `a`, with `left` elements to go, starts a whole line of them.
  bool startsLine(uintptr_t a, uint64_t step, uint64_t left) const {
    return periodic && (a & (kLineSize - 1)) < step && left >= per_line;
  }
};

// Adds the range element at `a` to the accesses of line `index` being
// gathered (`words`, `n`), closing lines through `close`: an element
// crossing into the next line of the page is one access to each (as for
// any access spanning lines); one of at most kSingleAccessBytes, one access
// to its first line. Returns false for an element crossing into the next
// page, the last one the page takes: its part here is added, and `spill`
// gets its bytes there when they count there.
template <typename Close>
bool addRangeElement(uintptr_t a, uint64_t size, uintptr_t page_end, unsigned &index,
                     uint16_t &words, uint64_t &n, Close close, uint64_t *spill) {
  const uintptr_t offset = a & (kLineSize - 1);
  if (a + size > page_end) {
    words |= lineWordMask(a, uint32_t(size));  // clipped at the line's end
    ++n;
    if (size > kSingleAccessBytes) *spill = a + size - page_end;
    return false;
  }
  if (offset + size <= kLineSize || size <= kSingleAccessBytes) {
    words |= lineWordMask(a, uint32_t(size));  // clipped at the line's end
    ++n;
  } else {
    words |= lineWordMask(a, uint32_t(kLineSize - offset));
    ++n;
    close();
    ++index;
    words = lineWordMask(0, uint32_t(offset + size - kLineSize));
    n = 1;
  }
  return true;
}

// How far ahead countRangeLineByLine asks for line records (see there).
constexpr unsigned kRangePrefetchLines = 8;

// A strided range's elements in a page several threads use and write:
// line by line through the model, as the per-line hooks would count them,
// but with one slot lookup for the page. Sets `accesses` and `remote`;
// returns the elements taken.
uint64_t countRangeLineByLine(SharedPageSlot &s, uint32_t tag, PageDetail *d, uintptr_t at,
                              uint64_t step, uint64_t count, uint64_t size, bool is_write,
                              bool is_remote, uintptr_t pc, uint16_t lead_words,
                              uint64_t *accesses, uint64_t *remote, uint64_t *spill) {
  if (is_write && !d->written_while_shared.load(std::memory_order_relaxed))
    d->written_while_shared.store(true, std::memory_order_relaxed);
  const uintptr_t page_end = (at | (kPageSize - 1)) + 1;
  uint64_t done = 0, total = 0, counted = 0;
  uintptr_t a = at;
  unsigned index = lead_words ? 0 : unsigned((a >> kLineShift) % kLinesPerPage);
  uint16_t words = lead_words;
  uint64_t n = lead_words ? 1 : 0;  // accesses to line `index` so far
  auto closeLine = [&]() {
    if (!n) return;
    if (!skippedOutsideWindow(s, index, n))
      counted += countLineInSlot(s, tag, d, index, words, is_write, is_remote, pc, n);
    total += n;
    words = 0;
    n = 0;
  };
  // The line records this range will reach are mostly cold (another thread
  // of the pipeline took them last), and the model takes each with a locked
  // instruction, which does not overlap its miss with the next: ask for the
  // record kRangePrefetchLines lines ahead as each line begins.
  const uint64_t hop = std::max<uint64_t>(step, kLineSize);
  const uintptr_t range_end =
      step == 0 || count > (page_end - at) / step ? page_end : at + count * step;
  auto prefetchRecord = [&](uintptr_t addr) {
    if (addr < range_end)
      if (const LineShare *l =
              d->lines[(addr >> kLineShift) % kLinesPerPage].load(std::memory_order_relaxed))
        prefetchForWrite(l);
  };
  // (A stride of a page or more meets one line of the page: nothing ahead.)
  const bool ahead = step != 0 && step < kPageSize;
  if (ahead)
    for (unsigned i = 0; i < kRangePrefetchLines; ++i) prefetchRecord(a + i * hop);
  const PeriodicLines pattern(at, step, size);
  while (done < count && a < page_end) {
    unsigned line = unsigned((a >> kLineShift) % kLinesPerPage);
    if (line != index) {
      closeLine();
      index = line;
      if (ahead) prefetchRecord(a + kRangePrefetchLines * hop);
    }
    if (line + 1 < kLinesPerPage && pattern.startsLine(a, step, count - done)) {
      // The line's elements at once, as the loop below would add them one by
      // one (none of them reaches past the page: the last line stays there).
      words |= pattern.words;
      n += pattern.per_line;
      done += pattern.per_line;
      a += kLineSize;
      if (pattern.crosses) {
        closeLine();
        index = line + 1;
        words = pattern.tail_words;
        n = 1;
      }
      continue;
    }
    ++done;
    if (!addRangeElement(a, size, page_end, index, words, n, closeLine, spill)) break;
    a += step;
  }
  closeLine();
  countInSlot(s, d, is_write, total);
  *accesses = total;
  *remote = counted;
  return done;
}

}  // namespace

uint64_t countRangeInSharedPage(SharedPageCache &cache, uint32_t tag, PageDetail *d, uintptr_t at,
                                uint64_t step, uint64_t count, uint64_t size, bool is_write,
                                bool is_remote, uintptr_t pc, uint16_t lead_words,
                                uint64_t *accesses, uint64_t *remote, uint64_t *spill) {
  *accesses = *remote = *spill = 0;
  if (size > kLineSize) return 0;
  uint32_t user = d->sole_user.load(std::memory_order_acquire);
  // As countSharedAccess would at the first element: the first thread since
  // the page became shared takes it over.
  if (user == 0) user = claimSingleUser(d, tag);
  // Reads of a page several threads use that nobody wrote while shared:
  // no line keeps holders, so each access only counts (as remote when the
  // thread is not the first toucher), exactly as in countSharedAccess.
  const bool read_only_shared = user == kManyUsers && !is_write &&
                                !d->written_while_shared.load(std::memory_order_relaxed);
  SharedPageSlot *s = slotFor(cache, tag, d);
  if (!s) return 0;
  // The single user, unless it writes a line its reader holds; its reader,
  // reading; or anyone reading a page nobody wrote while shared: whole runs.
  const bool as_reader =
      user != tag && user != kManyUsers && !is_write && isReader(d, user, tag);
  const bool own = user == tag && (!is_write || singleUserMayWrite(
                                                   *d, rangeLines(at, step, count, size) |
                                                           (lead_words ? 1 : 0)));
  if (!own && !as_reader && !read_only_shared) {
    if (user != kManyUsers) leaveSingleUser(d);
    return countRangeLineByLine(*s, tag, d, at, step, count, size, is_write, is_remote, pc,
                                lead_words, accesses, remote, spill);
  }
  if (is_write && !d->written_while_shared.load(std::memory_order_relaxed))
    d->written_while_shared.store(true, std::memory_order_relaxed);
  const bool tracked = d->written_while_shared.load(std::memory_order_relaxed);
  const uintptr_t page_end = (at | (kPageSize - 1)) + 1;
  uint64_t done = 0, total = 0;
  uintptr_t a = at;
  unsigned index = lead_words ? 0 : unsigned((a >> kLineShift) % kLinesPerPage);
  uint16_t words = lead_words;
  uint64_t n = lead_words ? 1 : 0;  // accesses to line `index` so far
  auto closeLine = [&]() {
    if (!n) return;
    if (tracked) {
      if (as_reader)
        readerLines(*d, index, 1, words);
      else
        singleUserLine(*d, index, words, is_write, n);
    }
    if (is_remote) addLineRemote(*s, index, n);
    total += n;
    words = 0;
    n = 0;
  };
  // Common case (PeriodicLines): a run of whole lines is counted in one pass
  // per counter array.
  const PeriodicLines pattern(a, step, size);
  const uint64_t per_line = pattern.per_line;
  const uint16_t start_words = pattern.words, tail_words = pattern.tail_words;
  const bool crosses = pattern.crosses;
  while (done < count && a < page_end) {
    unsigned line = unsigned((a >> kLineShift) % kLinesPerPage);
    if (line != index) {
      closeLine();
      index = line;
    }
    if (pattern.startsLine(a, step, count - done) && count - done >= 2 * per_line) {
      // `a` is the first element of its line; what is pending for the line
      // is the tail of the element before, if that crossed. The page's last
      // line stays with the loop, so a crossing tail lands in the page.
      uint64_t lines = std::min<uint64_t>((count - done) / per_line, kLinesPerPage - 1 - index);
      if (lines >= 2) {
        words |= start_words;
        n += per_line;
        closeLine();
        const uint64_t each = per_line + (crosses ? 1 : 0);
        const unsigned rest = unsigned(lines - 1);
        if (tracked && as_reader)
          readerLines(*d, index + 1, rest, start_words | tail_words);
        else if (tracked)
          singleUserLines(*d, index + 1, rest, start_words | tail_words, is_write, each);
        if (is_remote) addLinesRemote(*s, index + 1, rest, each);
        total += rest * each;
        done += lines * per_line;
        a += lines * kLineSize;
        index += unsigned(lines);
        if (crosses) {
          words = tail_words;
          n = 1;
        }
        continue;
      }
    }
    ++done;
    if (!addRangeElement(a, size, page_end, index, words, n, closeLine, spill)) break;
    a += step;
  }
  closeLine();
  countInSlot(*s, d, is_write, total);
  if (is_remote && pc && total) bufferSite(*s, pc, total);
  *accesses = total;
  *remote = is_remote ? total : 0;
  return done;
}

void flushSharedPageSlot(SharedPageCache &cache, uint32_t tag, const PageDetail *d) {
  if (!cache.slots) return;
  SharedPageSlot *way = &cache.slots[2 * setOf(cache, d)];
  for (unsigned i = 0; i < 2; ++i)
    if (way[i].page == d) flushSlot(way[i], tag);
}

void sharedPageCacheLockAll() { g_slot_pool.lock.lock(); }
void sharedPageCacheUnlockAll() { g_slot_pool.lock.unlock(); }

unsigned sharedPageSlotCount(const SharedPageSlot *slots) {
  if (!slots) return 0;
  return reinterpret_cast<const SlotArrayHeader *>(reinterpret_cast<const char *>(slots) -
                                                   kSlotHeaderBytes)
      ->count;
}

void flushSharedPageCache(SharedPageCache &cache, uint32_t tag, bool release) {
  // Read once: at report time another thread's cache may be growing (its
  // arrays are never unmapped, and each says how many slots it has).
  SharedPageSlot *slots = cache.slots;
  if (!slots) return;
  const unsigned count = sharedPageSlotCount(slots);
  for (unsigned i = 0; i < count; ++i) flushSlot(slots[i], tag);
  if (release) {
    for (HeldLineRead &h : cache.held) h = HeldLineRead();
    cache.slots = nullptr;
    cache.large_tags = nullptr;
    giveBackSlots(slots);
  }
}

}  // namespace numaperf
