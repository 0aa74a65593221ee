#include "core/deferred_forgets.h"

#include "core/object_fold.h"
#include "core/shadow_memory.h"
#include "core/thread_registry.h"

namespace numaperf {
namespace {

// Forgets the page if it is still private to the thread, as it was at the
// free.
void forgetIfStillPrivate(const ThreadState &t, uintptr_t page) {
  ShadowMemory &shadow = shadowMemory();
  if (!shadow.ready()) return;
  PageEntry *e = shadow.entryFor(page);
  if (e && pageKeptPrivate(t.owner_tag, e->owner.load(std::memory_order_relaxed),
                           e->early_remote.load(std::memory_order_relaxed) != 0,
                           e->detail.load(std::memory_order_acquire)))
    forgetPage(e, page);
}

}  // namespace

void deferPageForget(ThreadState &t, uintptr_t page) {
  uintptr_t &slot = t.deferred_forgets.pages[(page >> kPageShift) % kDeferredForgets];
  if (slot == page) return;
  const uintptr_t old = slot;
  slot = page;
  if (old) forgetIfStillPrivate(t, old);
}

void forgetDeferredPages(ThreadState &t) {
  for (uintptr_t &page : t.deferred_forgets.pages) {
    const uintptr_t p = page;
    page = 0;
    if (p) forgetIfStillPrivate(t, p);
  }
}

}  // namespace numaperf
