#include "core/fast_page.h"

#include "core/thread_registry.h"

#include <atomic>

namespace numaperf {

numaperf_fast_page g_no_fast_page = {
    {{NUMAPERF_NO_FAST_PAGE, {0, 0}}, {NUMAPERF_NO_FAST_PAGE, {0, 0}}}};

namespace {

void storePage(numaperf_fast_way &f, uint64_t page) {
  __atomic_store_n(&f.page, page, __ATOMIC_RELAXED);
}

bool stillPrivate(const ThreadState &t, PageEntry *e) {
  if (e->owner.load(std::memory_order_relaxed) != t.owner_tag) return false;
  PageDetail *d = e->detail.load(std::memory_order_acquire);
  return !d || !d->shared.load(std::memory_order_relaxed);
}

}  // namespace

void bindFastPage(ThreadState &t) { __numaperf_fast_page = &t.fast.abi; }

void unbindFastPage() { __numaperf_fast_page = &g_no_fast_page; }

void publishFastPage(ThreadState &t, unsigned way, PageEntry *e, uint64_t page) {
  numaperf_fast_way &w = t.fast.abi.ways[way];
  storePage(w, page);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (!stillPrivate(t, e)) storePage(w, NUMAPERF_NO_FAST_PAGE);
}

void dropFastPage(uint32_t owner_tag, uintptr_t addr) {
  if (owner_tag == 0 || owner_tag == kManyUsers) return;
  ThreadState *o = threadRegistry().byIndex(owner_tag - 1);
  if (!o) return;
  for (numaperf_fast_way &w : o->fast.abi.ways) {
    uint64_t page = fastPageNumber(addr);
    // Compare-exchange: the owner may have moved to another page meanwhile.
    __atomic_compare_exchange_n(&w.page, &page, NUMAPERF_NO_FAST_PAGE, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
  }
}

void flushFastWay(ThreadState &t, unsigned way) {
  PageEntry *e = t.fast.entry[way];
  if (!e) return;
  numaperf_fast_way &w = t.fast.abi.ways[way];
  uint64_t reads = w.counts[0], writes = w.counts[1];
  w.counts[0] = w.counts[1] = 0;
  // Only the owner adds to these counts: a plain read-modify-write will do.
  if (reads)
    e->owner_reads.store(e->owner_reads.load(std::memory_order_relaxed) + reads,
                         std::memory_order_relaxed);
  if (writes)
    e->owner_writes.store(e->owner_writes.load(std::memory_order_relaxed) + writes,
                          std::memory_order_relaxed);
  t.accesses += reads + writes;
}

void flushThreadPrivateCounts(ThreadState &t) {
  for (unsigned way = 0; way < kFastPageWays; ++way) flushFastWay(t, way);
}

}  // namespace numaperf
