// The access hooks called by instrumented code (see include/numaperf/hook_abi.h).
// The common case, a thread touching a page it touched first, reads one
// shadow word and bumps a thread-local counter; only accesses by other
// threads (predicted remote) write shared shadow state.
#include "numaperf/hook_abi.h"

#include "core/runtime_state.h"
#include "core/shadow_memory.h"
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

// Counts one access of the cache line holding `addr`.
inline void countLineAccess(ThreadState *t, uintptr_t addr) {
  ++t->accesses;
  PageEntry *e = shadowMemory().entryFor(addr);
  if (__builtin_expect(e == nullptr, 0)) return;
  uint32_t owner = e->owner.load(std::memory_order_relaxed);
  if (__builtin_expect(owner == t->owner_tag, 1)) return;
  if (owner == 0) {
    if (e->owner.compare_exchange_strong(owner, t->owner_tag, std::memory_order_relaxed) ||
        owner == t->owner_tag)
      return;  // first touch: the page is predicted local to this thread
  }
  ++t->remote_accesses;
  if (PageDetail *d = shadowMemory().detailFor(e))
    d->line_remote[(addr >> kLineShift) % kLinesPerPage].fetch_add(1, std::memory_order_relaxed);
}

inline void onAccess(const void *p) {
  ThreadState *t = hookThread();
  if (t) countLineAccess(t, reinterpret_cast<uintptr_t>(p));
}

// An access of `size` bytes counts once per cache line it covers.
inline void onRangeAccess(const void *p, uint64_t size) {
  if (size == 0) return;
  ThreadState *t = hookThread();
  if (!t) return;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  uintptr_t last = a + size - 1;
  if (last < a) last = ~uintptr_t(0);  // wrapped: clamp
  for (uintptr_t line = a & ~(kLineSize - 1); line <= last; line += kLineSize) {
    countLineAccess(t, line < a ? a : line);
    if (line + kLineSize < line) break;
  }
}

}  // namespace
}  // namespace numaperf

using numaperf::onAccess;
using numaperf::onRangeAccess;

NP_EXPORT void __numaperf_load1(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_load2(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_load4(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_load8(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_load16(const void *p) { onRangeAccess(p, 16); }
NP_EXPORT void __numaperf_store1(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_store2(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_store4(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_store8(const void *p) { onAccess(p); }
NP_EXPORT void __numaperf_store16(const void *p) { onRangeAccess(p, 16); }
NP_EXPORT void __numaperf_loadN(const void *p, uint64_t size) { onRangeAccess(p, size); }
NP_EXPORT void __numaperf_storeN(const void *p, uint64_t size) { onRangeAccess(p, size); }
