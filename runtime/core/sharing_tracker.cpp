#include "core/sharing_tracker.h"

#include "common/internal_alloc.h"

#include <algorithm>
#include <cstring>

namespace numaperf {
namespace {

std::atomic<uint32_t> g_word_detail_writes{2};

PageThreadUse *findUse(PageDetail *d, uint32_t tag) {
  for (PageThreadUse &u : d->threads)
    if (u.tag.load(std::memory_order_acquire) == tag) return &u;
  if (PageThreadOverflow *o = d->more_threads.load(std::memory_order_acquire)) {
    uint32_t n = o->count.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < n; ++i)
      if (o->uses[i].tag.load(std::memory_order_acquire) == tag) return &o->uses[i];
  }
  return nullptr;
}

// Adds `tag` to the page's thread list (exact, no limit on thread count).
PageThreadUse *addUse(PageDetail *d, uint32_t tag) {
  SpinLockGuard guard(d->threads_lock);
  if (PageThreadUse *u = findUse(d, tag)) return u;
  for (PageThreadUse &u : d->threads) {
    if (u.tag.load(std::memory_order_relaxed) == 0) {
      u.tag.store(tag, std::memory_order_release);
      return &u;
    }
  }
  PageThreadOverflow *o = d->more_threads.load(std::memory_order_relaxed);
  uint32_t count = o ? o->count.load(std::memory_order_relaxed) : 0;
  if (!o || count == o->capacity) {
    uint32_t capacity = o ? o->capacity * 2 : 8;
    size_t bytes = sizeof(PageThreadOverflow) + (capacity - 1) * sizeof(PageThreadUse);
    auto *bigger = static_cast<PageThreadOverflow *>(internalAlloc(bytes));
    if (!bigger) return nullptr;
    new (bigger) PageThreadOverflow();
    bigger->capacity = capacity;
    for (uint32_t i = 0; i < count; ++i) {
      bigger->uses[i].tag.store(o->uses[i].tag.load(std::memory_order_relaxed),
                                std::memory_order_relaxed);
      bigger->uses[i].accesses.store(o->uses[i].accesses.load(std::memory_order_relaxed),
                                     std::memory_order_relaxed);
    }
    bigger->count.store(count, std::memory_order_relaxed);
    bigger->previous = o;  // a reader may still be scanning the old list
    d->more_threads.store(bigger, std::memory_order_release);
    o = bigger;
  }
  o->uses[count].tag.store(tag, std::memory_order_release);
  o->count.store(count + 1, std::memory_order_release);
  return &o->uses[count];
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
void countLineSite(LineShare &l, uintptr_t pc) {
  LineSiteCount *weakest = &l.sites[0];
  for (LineSiteCount &s : l.sites) {
    if (s.pc == pc) {
      ++s.count;
      return;
    }
    if (s.count < weakest->count) weakest = &s;
  }
  weakest->pc = pc;
  ++weakest->count;
}

bool holds(const LineShare &l, uint32_t tag) {
  for (uint32_t i = 0; i < l.holder_count; ++i)
    if (l.holders[i] == tag) return true;
  return false;
}

void addHolder(LineShare &l, uint32_t tag) {
  if (holds(l, tag)) return;
  if (l.holder_count == l.holder_capacity) {
    uint32_t capacity = l.holder_capacity * 2;
    auto *bigger = static_cast<uint32_t *>(internalAlloc(capacity * sizeof(uint32_t)));
    if (!bigger) return;  // copy count saturates; invalidations undercount
    memcpy(bigger, l.holders, l.holder_count * sizeof(uint32_t));
    if (l.holders != l.inline_holders)
      internalFree(l.holders, l.holder_capacity * sizeof(uint32_t));
    l.holders = bigger;
    l.holder_capacity = capacity;
  }
  l.holders[l.holder_count++] = tag;
}

LineShare *newLineShare() {
  LineShare *l = internalNew<LineShare>();
  if (!l) return nullptr;
  l->holders = l->inline_holders;
  l->holder_capacity = sizeof(l->inline_holders) / sizeof(l->inline_holders[0]);
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

void wordRange(uintptr_t addr, uint32_t size, unsigned *first, unsigned *last) {
  uintptr_t offset = addr & (kLineSize - 1);
  uintptr_t end = std::min<uintptr_t>(offset + (size ? size : 1), kLineSize);
  *first = unsigned(offset >> kWordShift);
  *last = unsigned((end - 1) >> kWordShift);
}

// True when another thread has used one of the words of this access.
bool othersUseWords(const WordDetail &w, unsigned first, unsigned last, uint32_t tag) {
  for (unsigned i = first; i <= last; ++i)
    if ((w.first_tag[i] && w.first_tag[i] != tag) || (w.other_tag[i] && w.other_tag[i] != tag))
      return true;
  return false;
}

void noteWords(WordDetail &w, unsigned first, unsigned last, uint32_t tag, bool is_write) {
  for (unsigned i = first; i <= last; ++i) {
    if (w.first_tag[i] == 0)
      w.first_tag[i] = tag;
    else if (w.first_tag[i] != tag && w.other_tag[i] == 0)
      w.other_tag[i] = tag;
    if (is_write) w.written[i] = 1;
  }
}

}  // namespace

void setWordDetailThreshold(uint32_t writes) {
  g_word_detail_writes.store(writes, std::memory_order_relaxed);
}

void flushReadBuffer(PageReadBuffer &b, uint32_t tag) {
  PageDetail *d = b.page;
  if (!d) return;
  if (b.reads) {
    PageThreadUse *use = findUse(d, tag);
    if (!use) use = addUse(d, tag);
    if (use) use->accesses.fetch_add(b.reads, std::memory_order_relaxed);
    d->reads.fetch_add(b.reads, std::memory_order_relaxed);
    d->reads_since_write.fetch_add(b.reads, std::memory_order_relaxed);
  }
  for (uint64_t lines = b.remote_lines; lines; lines &= lines - 1) {
    unsigned i = unsigned(__builtin_ctzll(lines));
    d->line_remote[i].fetch_add(b.line_remote[i], std::memory_order_relaxed);
    b.line_remote[i] = 0;
  }
  if (b.pc_count) countSite(d, b.pc, b.pc_count);
  b.page = nullptr;
  b.reads = 0;
  b.remote_lines = 0;
  b.pc = 0;
  b.pc_count = 0;
}

bool bufferSharedRead(PageReadBuffer &b, uint32_t tag, PageDetail *d, uintptr_t addr,
                      bool is_remote, uintptr_t pc) {
  if (d->writes.load(std::memory_order_relaxed) != 0) {
    if (b.page == d) flushReadBuffer(b, tag);
    return false;
  }
  if (b.page != d) {
    flushReadBuffer(b, tag);
    b.page = d;
  }
  ++b.reads;
  if (is_remote) {
    unsigned line = unsigned((addr >> kLineShift) % kLinesPerPage);
    ++b.line_remote[line];
    b.remote_lines |= uint64_t(1) << line;
    if (pc && pc != b.pc) {
      if (b.pc_count) countSite(d, b.pc, b.pc_count);
      b.pc = pc;
      b.pc_count = 0;
    }
    if (pc) ++b.pc_count;
  }
  return true;
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
  PageThreadUse *use = findUse(d, tag);
  if (!use) use = addUse(d, tag);
  if (use) use->accesses.fetch_add(1, std::memory_order_relaxed);

  if (is_write) {
    d->writes.fetch_add(1, std::memory_order_relaxed);
    if (d->reads_since_write.load(std::memory_order_relaxed) != 0)
      d->reads_since_write.store(0, std::memory_order_relaxed);
  } else {
    d->reads.fetch_add(1, std::memory_order_relaxed);
    d->reads_since_write.fetch_add(1, std::memory_order_relaxed);
  }

  unsigned index = unsigned((addr >> kLineShift) % kLinesPerPage);
  // Lines of pages never written while shared need no copy tracking: without
  // a write nothing is invalidated. Once the page sees writes, readers are
  // tracked too, so a later write counts their copies.
  bool track_line = is_write || d->writes.load(std::memory_order_relaxed) != 0;
  LineShare *line = track_line ? lineFor(d, index, true) : nullptr;
  bool invalidated = false;
  bool counted_remote = is_remote;
  if (line) {
    SpinLockGuard guard(line->lock);
    // On a contended line (one that has lost copies to writes) a re-read of a
    // still-valid copy is a cache hit, not remote traffic.
    if (is_remote && line->invalidations > 0 && holds(*line, tag)) counted_remote = false;
    unsigned first, last;
    wordRange(addr, size, &first, &last);
    if (is_write) {
      uint32_t copies = line->holder_count - (holds(*line, tag) ? 1 : 0);
      if (copies) {
        invalidated = true;
        line->invalidations += copies;
        if (line->words) {
          if (othersUseWords(*line->words, first, last, tag))
            line->invalidations_true += copies;
          else
            line->invalidations_false += copies;
        }
      }
      line->holder_count = 0;
      addHolder(*line, tag);
      if (++line->writes >= g_word_detail_writes.load(std::memory_order_relaxed) &&
          !line->words)
        line->words = internalNew<WordDetail>();
    } else {
      addHolder(*line, tag);
    }
    if (line->words) noteWords(*line->words, first, last, tag, is_write);
    if ((counted_remote || invalidated) && pc) countLineSite(*line, pc);
  }
  if (counted_remote)
    d->line_remote[index].fetch_add(1, std::memory_order_relaxed);
  if (!line && counted_remote && pc) countSite(d, pc);
  return counted_remote;
}

}  // namespace numaperf
