// The access hooks called by instrumented code (see include/numaperf/hook_abi.h).
// The common case, a thread touching a private page it touched first, reads
// one shadow entry and bumps thread-local counters; pages that several
// threads use go through the thread's cache of shared pages
// (shared_page_cache.h), and only accesses that change a line's sharing state
// take a lock (sharing_tracker.h).
#include "numaperf/hook_abi.h"

#include "core/runtime_state.h"
#include "core/shadow_memory.h"
#include "core/shared_page_cache.h"
#include "core/thread_registry.h"

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

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

// The first toucher's access to a private page: counted in the thread until
// it moves to another page (PageEntry::owner_reads/owner_writes).
inline void countPrivateAccess(ThreadState *t, PageEntry *e, bool is_write) {
  if (__builtin_expect(t->private_page != e, 0)) {
    if (t->private_page) flushThreadPrivateCounts(*t);
    t->private_page = e;
  }
  ++t->private_counts[is_write];
}

// Counts one access of `size` bytes at `addr` (within one cache line).
inline void countLineAccess(ThreadState *t, uintptr_t addr, uint32_t size, bool is_write,
                            uintptr_t pc) {
  ++t->accesses;
  PageEntry *e = shadowMemory().entryFor(addr);
  if (__builtin_expect(e == nullptr, 0)) return;
  uint32_t owner = e->owner.load(std::memory_order_relaxed);
  if (__builtin_expect(owner == t->owner_tag, 1)) {
    // Private page: done. A shared page needs its sharing state updated.
    PageDetail *d = e->detail.load(std::memory_order_acquire);
    if (__builtin_expect(d == nullptr, 1) || !d->shared.load(std::memory_order_relaxed)) {
      countPrivateAccess(t, e, is_write);
      return;
    }
    countSharedAccess(t->page_cache, t->owner_tag, d, addr, size, is_write, false, pc);
    return;
  }
  if (owner == 0) {
    if (e->owner.compare_exchange_strong(owner, t->owner_tag, std::memory_order_relaxed) ||
        owner == t->owner_tag) {
      countPrivateAccess(t, e, is_write);
      return;  // first touch: the page is predicted local to this thread
    }
  }
  PageDetail *d = e->detail.load(std::memory_order_acquire);
  if (!d) {
    // Pages reached by other threads only now and then stay cheap: their
    // first remote accesses are counted per page until the threshold.
    uint32_t threshold = shadowMemory().detailThreshold();
    if (threshold && e->early_remote.load(std::memory_order_relaxed) < threshold) {
      e->early_remote.fetch_add(1, std::memory_order_relaxed);
      ++t->remote_accesses;
      return;
    }
    d = shadowMemory().detailFor(e);
  }
  if (!d) {
    ++t->remote_accesses;
    return;
  }
  if (__builtin_expect(!d->shared.load(std::memory_order_relaxed), 0))
    d->shared.store(true, std::memory_order_relaxed);
  if (countSharedAccess(t->page_cache, t->owner_tag, d, addr, size, is_write, true, pc))
    ++t->remote_accesses;
}

inline void onAccess(const void *p, uint32_t size, bool is_write, uintptr_t pc) {
  ThreadState *t = hookThread();
  if (t) countLineAccess(t, reinterpret_cast<uintptr_t>(p), size, is_write, pc);
}

// An access of `size` bytes counts once per cache line it covers.
inline void onRangeAccess(const void *p, uint64_t size, bool is_write, uintptr_t pc) {
  if (size == 0) return;
  ThreadState *t = hookThread();
  if (!t) return;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  uintptr_t last = a + size - 1;
  if (last < a) last = ~uintptr_t(0);  // wrapped: clamp
  for (uintptr_t line = a & ~(kLineSize - 1); line <= last; line += kLineSize) {
    uintptr_t from = line < a ? a : line;
    uintptr_t to = last - line < kLineSize ? last : line + kLineSize - 1;
    countLineAccess(t, from, uint32_t(to - from + 1), is_write, pc);
    if (line + kLineSize < line) break;
  }
}

}  // namespace
}  // namespace numaperf

using numaperf::onAccess;
using numaperf::onRangeAccess;

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
