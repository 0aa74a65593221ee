#include "interception/allocation_tracking.h"

#include "common/hot_path.h"
#include "core/mapping_registry.h"
#include "core/object_fold.h"
#include "core/object_registry.h"
#include "core/overhead_meter.h"
#include "core/profiling_switch.h"
#include "core/runtime_state.h"
#include "core/stack_capture.h"
#include "core/stack_store.h"
#include "interception/real_functions.h"

#include <atomic>

namespace numaperf {

// runtimeConfig().stack_depth, copied next to the other hot data: the
// config's own page would be one more for every malloc (hot_path.h).
static NUMAPERF_HOT_DATA std::atomic<uint32_t> g_site_depth{0};

namespace {

NUMAPERF_HOT_PATH uint32_t siteDepth() {
  uint32_t depth = g_site_depth.load(std::memory_order_relaxed);
  if (depth == 0) {
    depth = runtimeConfig().stack_depth;
    g_site_depth.store(depth, std::memory_order_relaxed);
  }
  return depth;
}

// The allocation site of the object being created: the caller's stack.
// A thread allocating from the same site again (a loop of `new`) finds it
// by comparing the frames with that site's, without hashing them and
// searching the store: with profiling off this path is what a program that
// allocates per cache miss pays on each allocation (docs/benchmarks.md,
// "Interceptor cost").
// With `from` (the interceptor's own frame) the walk starts there and also
// notes its frame chain for recordRepeatedAllocation; frames only move up the
// stack, so the runtime's frames below it would change nothing.
NUMAPERF_HOT_PATH StackRecord *captureAllocationSite(size_t size, const void *from = nullptr) {
  ThreadState *t = currentThread();
  uintptr_t frames[64];
  uint32_t depth = 0;
  FrameChain *chain = nullptr;
  // The thread's site may change: recordAllocation opens the lane again.
  if (t) t->alloc_lane.granules = 0;
  if (!from || !t) {
    depth = captureStack(frames, siteDepth(), t ? t->stack_high : 0);
  } else if (t->stack_high != 0) {  // captureStack does not walk without bounds
    chain = &t->alloc_chain;
    t->chain_site = nullptr;  // rewritten below
    depth = walkFrames(static_cast<const uintptr_t *>(from), t->stack_low, t->stack_high, siteDepth(), frames,
                       chain);
  }
  StackRecord *site = t && t->alloc_site && t->alloc_site->matches(frames, depth)
                          ? t->alloc_site
                          : stackStore().intern(frames, depth);
  if (!site) return nullptr;
  if (chain && chain->len <= FrameChain::kMax) t->chain_site = site;
  if (!t) {
    site->noteAllocations(1, size);
  } else if (site == t->alloc_site) {
    // Handed over now and then, so that the site's count is roughly current
    // while the thread keeps allocating there (page sampling reads it).
    if (++t->alloc_site_objects == kSiteCountBatch) flushAllocationCounts(*t);
    site->noteAllocations(0, size);  // the largest size: a read unless it grows
  } else {
    flushAllocationCounts(*t);
    t->alloc_site = site;
    t->alloc_site_objects = 1;
    site->noteAllocations(0, size);
  }
  return site;
}

// The calling thread's meter, for the time of the runtime's work here; none
// while profiling is off: no gap is measured then to take it out of, and a
// program that allocates a lot should not pay the timing.
NUMAPERF_HOT_PATH OverheadMeter *meterOfCaller() {
  if (!profilingSwitchedOn()) return nullptr;
  ThreadState *t = ThreadRegistry::current();
  return t ? &t->meter : nullptr;
}

// The retiring thread's own buffered counts for [start, start + size)
// belong to what it retires.
NUMAPERF_HOT_PATH void flushOwnCounts(uintptr_t start, uint64_t size) {
  if (ThreadState *t = ThreadRegistry::current()) flushThreadCountsIn(*t, start, start + size);
}

}  // namespace

NUMAPERF_HOT_PATH void recordAllocation(void *p, size_t size, const void *interceptor_frame) {
  RuntimeScope scope;
  RuntimeWorkTimer timer(meterOfCaller());
  const auto start = reinterpret_cast<uintptr_t>(p);
  StackRecord *site = captureAllocationSite(size, interceptor_frame);
  objectRegistry().addHeap(start, size, site);
  // The thread's next blocks from the same place take the short path
  // (recordRepeatedAllocation) through a lane of the block map.
  ThreadState *t = currentThread();
  if (interceptor_frame && t && site && t->chain_site == site && t->alloc_site == site)
    objectRegistry().openHeapLane(start, site, site->max_size.load(std::memory_order_relaxed),
                                  &t->alloc_lane);
}

void recordMapping(void *p, size_t size) {
  RuntimeScope scope;
  RuntimeWorkTimer timer(meterOfCaller());
  mappingRegistry().add(reinterpret_cast<uintptr_t>(p), size, captureAllocationSite(size));
}

void retireMapping(void *p, size_t size) {
  RuntimeScope scope;
  RuntimeWorkTimer timer(meterOfCaller());
  flushOwnCounts(reinterpret_cast<uintptr_t>(p), size);
  mappingRegistry().remove(reinterpret_cast<uintptr_t>(p), size);
}

NUMAPERF_HOT_PATH void afterFree(void *p, uint64_t size) {
  // glibc serves blocks from 128 KiB up (by default) with mappings of their
  // own; M_MMAP_THRESHOLD can lower that. One mincore call per such free.
  // Before any page has a first toucher there is nothing to forget (a
  // program switched off pays no system call per large free).
  constexpr uint64_t kOwnMappingCheckBytes = 16 * 1024;
  if (size < kOwnMappingCheckBytes || nothingTouched()) return;
  RuntimeScope scope;
  RuntimeWorkTimer timer(meterOfCaller());
  forgetReleasedEdgePages(reinterpret_cast<uintptr_t>(p), size);
}

void afterMove(void *old, uint64_t size) {
  if (nothingTouched()) return;  // see afterFree
  {
    RuntimeScope scope;
    RuntimeWorkTimer timer(meterOfCaller());  // afterFree times itself
    forgetWholePages(reinterpret_cast<uintptr_t>(old), size);
  }
  afterFree(old, size);
}

NUMAPERF_HOT_PATH uint64_t retireAllocation(void *p, bool forget_pages) {
  // Nothing profiled yet (profiling off since the start): no counts to fold
  // and no page to forget, and a small block's map entry may stay, dead
  // (ObjectRegistry::skipsUnprofiledFree). A program freeing a linked
  // structure otherwise waits for one more cache miss per free
  // (docs/benchmarks.md, "Session 9" and "Session 27").
  if (nothingTouched() && real().malloc_usable_size &&
      objectRegistry().skipsUnprofiledFree(real().malloc_usable_size(p)))
    return 0;
  RuntimeScope scope;
  RuntimeWorkTimer timer(meterOfCaller());
  uint64_t size = 0;
  objectRegistry().removeHeap(reinterpret_cast<uintptr_t>(p), forget_pages, &size,
                              flushOwnCounts);
  return size;
}

}  // namespace numaperf
