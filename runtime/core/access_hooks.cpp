// The access hooks called by instrumented code (see include/numaperf/hook_abi.h).
// The common case, a thread touching a private page it touched first, reads
// one shadow entry and bumps thread-local counters; pages that several
// threads use go through the thread's cache of shared pages
// (shared_page_cache.h), and only accesses that change a line's sharing state
// take a lock (sharing_tracker.h).
#include "numaperf/hook_abi.h"

#include "core/fast_page.h"
#include "core/page_sampling.h"
#include "core/range_repeats.h"
#include "core/runtime_state.h"
#include "core/shadow_memory.h"
#include "core/shared_page_cache.h"
#include "core/thread_registry.h"

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

// The inline private-page test's record pointer (hook_abi.h, fast_page.h).
__attribute__((visibility("default"))) __thread numaperf_fast_page *__numaperf_fast_page
    __attribute__((tls_model("initial-exec"))) = &numaperf::g_no_fast_page;

namespace numaperf {
namespace {

inline ThreadState *hookThread() {
  if (__builtin_expect(!profilingActive(), 0)) {
    if (g_runtime_status.load(std::memory_order_relaxed) != kUninitialized ||
        !ensureInitialized())
      return nullptr;
  }
  ThreadState *t = ThreadRegistry::current();
  if (__builtin_expect(t == nullptr, 0)) t = currentThread();
  return t;
}

// Times one hook call in about a thousand (overhead_meter.h).
inline auto sampledHookTimer(ThreadState *t) {
  return SampledTimer(t->meter, [t] { return waitEpoch(*t); });
}

// The first toucher's accesses to a private page: counted in one of the
// thread's inline ways until the way is given to another page
// (PageEntry::owner_reads/owner_writes). The page becomes the way's page, so
// that instrumented code counts the next accesses to it without a call
// (fast_page.h); the way the hooks used less recently is the one replaced.
inline void countPrivateAccess(ThreadState *t, PageEntry *e, uintptr_t addr, bool is_write,
                               uint64_t n) {
  FastPageState &f = t->fast;
  unsigned way = f.entry[0] == e ? 0 : 1;
  if (__builtin_expect(f.entry[way] != e, 0)) {
    way = f.recent ^ 1;
    flushFastWay(*t, way);
    f.entry[way] = e;
  }
  f.recent = way;
  uint64_t page = fastPageNumber(addr);
  if (__builtin_expect(f.abi.ways[way].page != page, 0)) publishFastPage(*t, way, e, page);
  f.abi.ways[way].counts[is_write] += n;
}

// A range hook's accesses to a private page of the first toucher, added to
// the page's counts at once (only the owner writes them, as flushFastWay
// does). Taking one of the inline ways for them (countPrivateAccess) would
// push out the pages the inline test serves, and a loop nest that streams
// more rows than there are ways (a matrix multiply's row of C, read and
// written once per row of B) traded its ways at every page.
inline void countPrivateRange(ThreadState *t, PageEntry *e, bool is_write, uint64_t n) {
  std::atomic<uint64_t> &c = is_write ? e->owner_writes : e->owner_reads;
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  t->accesses += n;
}

void countOtherPageAccess(ThreadState *t, PageEntry *e, uint32_t owner, uintptr_t addr,
                          uint16_t words, bool is_write, uintptr_t pc, uint64_t n);

// Counts `n` accesses in a row (n > 1 only for range hooks) to the words
// `words` of the line at `addr`. Inlined into each hook: the first toucher's
// access to its private page costs no further call.
__attribute__((always_inline)) inline void countLineAccess(ThreadState *t, uintptr_t addr,
                                                           uint16_t words, bool is_write,
                                                           uintptr_t pc, uint64_t n) {
  PageEntry *e = shadowMemory().entryFor(addr);
  if (__builtin_expect(e == nullptr, 0)) {
    t->accesses += n;
    return;
  }
  uint32_t owner = e->owner.load(std::memory_order_relaxed);
  if (__builtin_expect(owner == t->owner_tag, 1)) {
    // Private page: done. A shared page needs its sharing state updated.
    PageDetail *d = e->detail.load(std::memory_order_acquire);
    if (__builtin_expect(d == nullptr, 1) || !d->shared.load(std::memory_order_relaxed)) {
      countPrivateAccess(t, e, addr, is_write, n);  // adds to t->accesses when flushed
      return;
    }
    t->accesses += n;
    countSharedAccess(t->page_cache, t->owner_tag, d, addr, words, is_write, false, pc, n);
    return;
  }
  countOtherPageAccess(t, e, owner, addr, words, is_write, pc, n);
}

// countLineAccess on a page the thread did not touch first (or nobody has).
__attribute__((noinline)) void countOtherPageAccess(ThreadState *t, PageEntry *e, uint32_t owner,
                                                    uintptr_t addr, uint16_t words, bool is_write,
                                                    uintptr_t pc, uint64_t n) {
  if (owner == 0) {
    if (e->owner.compare_exchange_strong(owner, t->owner_tag, std::memory_order_relaxed) ||
        owner == t->owner_tag) {
      shadowMemory().noteClaim();
      countPrivateAccess(t, e, addr, is_write, n);
      return;  // first touch: the page is predicted local to this thread
    }
  }
  t->accesses += n;
  PageDetail *d = e->detail.load(std::memory_order_acquire);
  if (!d) {
    uint32_t early = e->early_remote.load(std::memory_order_relaxed);
    if (sampledAway(early)) {  // page_sampling.h: only counted
      const uint64_t added = tallySampledAway(t->away, e, early, n);
      t->remote_accesses += n;
      if (__builtin_expect(added && sampleRecheckDue(early, added), 0) && !samplePageAway(addr))
        shadowMemory().detailFor(e);  // what the page holds changed: model it from now on
      return;
    }
    // Pages reached by other threads only now and then stay cheap: their
    // first remote accesses are counted per page until the threshold.
    uint32_t threshold = shadowMemory().detailThreshold();
    if (threshold && early < threshold) {
      e->early_remote.fetch_add(uint32_t(n < threshold ? n : threshold),
                                std::memory_order_relaxed);
      t->remote_accesses += n;
      return;
    }
    if (samplePageAway(addr)) {
      markSampledAway(e);
      tallySampledAway(t->away, e, early, n);
      t->remote_accesses += n;
      return;
    }
    d = shadowMemory().detailFor(e);
  }
  if (!d) {
    t->remote_accesses += n;
    return;
  }
  if (__builtin_expect(!d->shared.load(std::memory_order_relaxed), 0)) {
    d->shared.store(true, std::memory_order_relaxed);
    // The first toucher must stop counting the page inline (fast_page.h).
    std::atomic_thread_fence(std::memory_order_seq_cst);
    dropFastPage(owner, addr);
  }
  t->remote_accesses +=
      countSharedAccess(t->page_cache, t->owner_tag, d, addr, words, is_write, true, pc, n);
}

__attribute__((always_inline)) inline void onAccess(const void *p, uint32_t size, bool is_write,
                                                    uintptr_t pc) {
  // The program loads or stores `p` right after the hook returns; on data
  // it reads at random that is a cache miss, and so is the page's shadow
  // entry read below. Asked for now, the two misses overlap instead of
  // following each other (docs/benchmarks.md, "Session 10").
  __builtin_prefetch(p);
  ThreadState *t = hookThread();
  if (t) {
    auto timer = sampledHookTimer(t);
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    countLineAccess(t, a, lineWordMask(a, size), is_write, pc, 1);
  }
}

// An access of `size` bytes counts once per cache line it covers (`n` such
// accesses in a row: a loop's reads of one address).
inline void countRange(ThreadState *t, uintptr_t a, uint64_t size, bool is_write, uintptr_t pc,
                       uint64_t n = 1) {
  uintptr_t last = a + size - 1;
  if (last < a) last = ~uintptr_t(0);  // wrapped: clamp
  for (uintptr_t line = a & ~(kLineSize - 1); line <= last; line += kLineSize) {
    uintptr_t from = line < a ? a : line;
    uintptr_t to = last - line < kLineSize ? last : line + kLineSize - 1;
    countLineAccess(t, from, lineWordMask(from, uint32_t(to - from + 1)), is_write, pc, n);
    if (line + kLineSize < line) break;
  }
}

inline void onRangeAccess(const void *p, uint64_t size, bool is_write, uintptr_t pc) {
  if (size == 0) return;
  __builtin_prefetch(p);  // as in onAccess
  ThreadState *t = hookThread();
  if (!t) return;
  auto timer = sampledHookTimer(t);
  countRange(t, reinterpret_cast<uintptr_t>(p), size, is_write, pc);
}

// A range of `count` elements of `size` bytes at a, a + stride, ...: the
// bytes [lo, hi) it covers and the distance between elements.
struct RangeExtent {
  uintptr_t lo = 0, hi = 0;
  uint64_t step = 0;
};

// False when the elements are not a range of the address space.
inline bool rangeExtent(uintptr_t a, int64_t stride, uint64_t count, uint64_t size,
                        RangeExtent *x) {
  x->step = stride < 0 ? uint64_t(0) - uint64_t(stride) : uint64_t(stride);
  uint64_t span;
  if (__builtin_mul_overflow(count - 1, x->step, &span) || (stride < 0 && span > a) ||
      (stride > 0 && a + span < a))
    return false;
  x->lo = stride < 0 ? a - span : a;
  x->hi = x->lo + span + size;
  if (x->hi < x->lo) x->hi = ~uintptr_t(0);
  return true;
}

// Counts `rep` times (range_repeats.h) the `count` accesses of `size` bytes
// at base, base + step, ... (step > 0; a descending range walked upwards):
// as that many single accesses made in a row, elements that share a line
// counted together, and on a page private to the thread or sampled away
// all elements of the page at once. Returns whether every page was of
// those two kinds (the walk is then a pure count, and repeats of it may
// wait).
bool walkRange(ThreadState *t, uintptr_t base, uint64_t step, uint64_t count, uint64_t size,
               bool is_write, uintptr_t pc, uint64_t rep) {
  bool countable = true;
  uint64_t i = 0;
  // The part of an element that a shared page's count left for the next
  // page (countRangeInSharedPage): one access to that page's first line.
  uint16_t lead = 0;
  uintptr_t lead_at = 0;
  auto countLead = [&] {
    if (lead) countLineAccess(t, lead_at, lead, is_write, pc, rep);
    lead = 0;
  };
  while (i < count) {
    uintptr_t at = base + i * step;
    uintptr_t offset = at & (kLineSize - 1);
    if (lead && (at & ~(kPageSize - 1)) != lead_at) countLead();
    PageEntry *e = shadowMemory().entryFor(at);
    if (step < kPageSize && size <= kLineSize && e && (at & (kPageSize - 1)) + size <= kPageSize) {
      uint32_t owner = e->owner.load(std::memory_order_relaxed);
      PageDetail *d = e->detail.load(std::memory_order_acquire);
      bool shared = d && d->shared.load(std::memory_order_relaxed);
      if (owner == t->owner_tag && !shared) {
        // Every element of the range that lies wholly in this private page
        // (one access per line an element covers).
        uintptr_t page_end = (at | (kPageSize - 1)) + 1;
        uint64_t in_page = stepsIn(page_end - at - size, step) + 1;
        if (in_page > count - i) in_page = count - i;
        uint64_t accesses = in_page;
        // Crossing or not, accesses of up to 8 bytes count one each (as
        // their hooks count them); wider ones one more when they cross.
        if (size > kSingleAccessBytes) accesses += elementsCrossingLines(at, step, size, in_page);
        countPrivateRange(t, e, is_write, (accesses + (lead ? 1 : 0)) * rep);
        lead = 0;
        i += in_page;
        continue;
      }
      if (!d && owner != 0 && owner != t->owner_tag) {
        uint32_t early = e->early_remote.load(std::memory_order_relaxed);
        if (sampledAway(early)) {
          // A page sampled away: its elements are only counted, all at once.
          uintptr_t page_end = (at | (kPageSize - 1)) + 1;
          uint64_t in_page = stepsIn(page_end - at - size, step) + 1;
          if (in_page > count - i) in_page = count - i;
          uint64_t accesses = in_page + (lead ? 1 : 0);
          if (size > kSingleAccessBytes) accesses += elementsCrossingLines(at, step, size, in_page);
          accesses *= rep;
          tallySampledAway(t->away, e, early, accesses);
          t->accesses += accesses;
          t->remote_accesses += accesses;
          lead = 0;
          i += in_page;
          continue;
        }
      }
      countable = false;
      if (shared && owner != 0 && rep == 1) {
        // A shared page: all its elements at once (in runs of lines when
        // the thread alone uses it or nobody writes it while shared).
        uint64_t accesses = 0, remote = 0, spill = 0;
        uint64_t k = countRangeInSharedPage(t->page_cache, t->owner_tag, d, at, step, count - i,
                                            size, is_write, owner != t->owner_tag, pc, lead,
                                            &accesses, &remote, &spill);
        if (k) {
          t->accesses += accesses;
          t->remote_accesses += remote;
          i += k;
          lead = 0;
          if (spill) {
            lead_at = (at | (kPageSize - 1)) + 1;
            lead = lineWordMask(lead_at, uint32_t(spill));
          }
          continue;
        }
      }
    }
    countable = false;
    countLead();
    if (offset + size > kLineSize) {  // the element crosses a line
      if (size <= kSingleAccessBytes)
        countLineAccess(t, at, lineWordMask(at, uint32_t(size)), is_write, pc, rep);
      else
        countRange(t, at, size, is_write, pc, rep);
      ++i;
      continue;
    }
    // The elements starting in this line and ending in it.
    uint64_t k = 1;
    uint16_t words = lineWordMask(at, uint32_t(size));
    if (step < kLineSize) {
      k = stepsIn(kLineSize - offset - size, step) + 1;
      if (k > count - i) k = count - i;
      if (step <= size)  // the elements cover the bytes in between
        words = lineWordMask(at, uint32_t((k - 1) * step + size));
      else
        for (uint64_t j = 1; j < k; ++j) words |= lineWordMask(at + j * step, uint32_t(size));
    }
    countLineAccess(t, at, words, is_write, pc, k * rep);
    i += k;
  }
  countLead();
  return countable;
}

// Counts a call site's pending repeats (range_repeats.h).
void countRepeats(ThreadState &t, RangeRepeat &r) {
  if (r.pending)
    r.countable = walkRange(&t, r.lo, r.step, r.count, r.size, r.is_write, r.pc, r.pending);
  r.pending = 0;
}

[[maybe_unused]] const bool g_repeat_counter_set = (setRangeRepeatCounter(countRepeats), true);

// `count` accesses of `size` bytes at a, a + stride, ... (a loop's strided
// access, reported once before the loop). A call that repeats its call
// site's previous one and found only private and sampled-away pages then
// is counted later, with its repeats (range_repeats.h).
inline void onStridedAccess(const void *p, int64_t stride, uint64_t count, uint64_t size,
                            bool is_write, uintptr_t pc) {
  if (count == 0 || size == 0) return;
  ThreadState *t = hookThread();
  if (!t) return;
  auto timer = sampledHookTimer(t);
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (stride == 0) {  // `count` reads of one address: its line(s), `count` times
    if (size <= kSingleAccessBytes)
      countLineAccess(t, a, lineWordMask(a, uint32_t(size)), is_write, pc, count);
    else
      countRange(t, a, size, is_write, pc, count);
    return;
  }
  RangeRepeats &rr = t->repeats;
  const unsigned slot = rr.slotOf(pc);
  const uint32_t bit = 1u << slot;
  RangeRepeat &r = rr.slots[slot];
  if (r.same(pc, a, stride, count, size, is_write)) {
    if (r.countable) {
      if (++r.pending < RangeRepeats::kMaxPending) {
        rr.pending_slots |= bit;
        return;
      }
      countRepeats(*t, r);  // this call included
      rr.pending_slots &= ~bit;
      return;
    }
  } else {
    if (r.pending) countRepeats(*t, r);
    rr.pending_slots &= ~bit;
    r = RangeRepeat{};
    RangeExtent x;
    // The order of one thread's accesses within the range does not matter
    // to the model: it is walked upwards, from lo.
    if (!rangeExtent(a, stride, count, size, &x)) return;  // not a real range
    r.pc = pc;
    r.start = a;
    r.stride = stride;
    r.count = count;
    r.size = size;
    r.lo = x.lo;
    r.hi = x.hi;
    r.step = x.step;
    r.is_write = is_write;
  }
  r.countable = walkRange(t, r.lo, r.step, count, size, is_write, pc, 1);
}

}  // namespace
}  // namespace numaperf

using numaperf::onAccess;
using numaperf::onRangeAccess;
using numaperf::onStridedAccess;

#define NP_PC reinterpret_cast<uintptr_t>(__builtin_return_address(0))

NP_EXPORT void __numaperf_load1(const void *p) { onAccess(p, 1, false, NP_PC); }
NP_EXPORT void __numaperf_load2(const void *p) { onAccess(p, 2, false, NP_PC); }
NP_EXPORT void __numaperf_load4(const void *p) { onAccess(p, 4, false, NP_PC); }
NP_EXPORT void __numaperf_load8(const void *p) { onAccess(p, 8, false, NP_PC); }
NP_EXPORT void __numaperf_load16(const void *p) { onRangeAccess(p, 16, false, NP_PC); }
NP_EXPORT void __numaperf_store1(const void *p) { onAccess(p, 1, true, NP_PC); }
NP_EXPORT void __numaperf_store2(const void *p) { onAccess(p, 2, true, NP_PC); }
NP_EXPORT void __numaperf_store4(const void *p) { onAccess(p, 4, true, NP_PC); }
NP_EXPORT void __numaperf_store8(const void *p) { onAccess(p, 8, true, NP_PC); }
NP_EXPORT void __numaperf_store16(const void *p) { onRangeAccess(p, 16, true, NP_PC); }
NP_EXPORT void __numaperf_loadN(const void *p, uint64_t size) {
  onRangeAccess(p, size, false, NP_PC);
}
NP_EXPORT void __numaperf_storeN(const void *p, uint64_t size) {
  onRangeAccess(p, size, true, NP_PC);
}
NP_EXPORT void __numaperf_load_range(const void *p, int64_t stride, uint64_t count,
                                     uint64_t size) {
  onStridedAccess(p, stride, count, size, false, NP_PC);
}
NP_EXPORT void __numaperf_store_range(const void *p, int64_t stride, uint64_t count,
                                      uint64_t size) {
  onStridedAccess(p, stride, count, size, true, NP_PC);
}
