// What the allocation interceptors do besides calling the real allocator:
// record a new block with its allocation stack, and retire a block (folding
// its shadow counts into its allocation site).
#pragma once

#include "core/object_registry.h"
#include "core/profiling_switch.h"
#include "core/runtime_state.h"
#include "core/stack_capture.h"
#include "core/stack_store.h"
#include "core/thread_registry.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace numaperf {

// True when this allocation should be recorded (profiling on, and the call
// does not come from the runtime itself). Inline: every free asks.
inline bool shouldTrackAllocations() {
  if (RuntimeScope::inside()) return false;
  return profilingActive() || ensureInitialized();
}
// `interceptor_frame`, when given, is the calling interceptor's own frame
// (__builtin_frame_address(0)): the stack walk starts there and notes the
// frame chain for recordRepeatedAllocation.
void recordAllocation(void *p, size_t size, const void *interceptor_frame = nullptr);

// Objects a thread allocates from one site in a row are added to the site's
// count this many at a time.
constexpr uint64_t kSiteCountBatch = 256;

// The common case of recordAllocation in one inline function without
// calls, for malloc to try first (`frame`: its own frame,
// __builtin_frame_address(0)): the calling thread allocates again with the
// same frame chain as when it last recorded a block (recordAllocation given
// the interceptor's frame), so from the same stack and site, and the block
// lands in the lane of the block map opened then (BlockMap::insertInLane).
// In a loop whose cache misses overlap, the length of this path is its
// price: every instruction here delays the program's next miss
// (docs/benchmarks.md, "Session 27" and "Session 28"). The result is the
// same as recordAllocation's, with profiling on or off (on, the
// block's few instructions are not timed by the thread's overhead meter).
// False, having done nothing, in every other case.
__attribute__((always_inline)) inline bool recordRepeatedAllocation(void *p, size_t size,
                                                                    const void *frame) {
  if (!profilingActive() || RuntimeScope::inside()) return false;
  ThreadState *t = ThreadRegistry::current();
  if (!t || !sameFrameChain(t->alloc_chain, static_cast<const uintptr_t *>(frame)) ||
      !BlockMap::insertInLane(t->alloc_lane, reinterpret_cast<uintptr_t>(p), size))
    return false;
  if (__builtin_expect(++t->alloc_site_objects == kSiteCountBatch, 0)) flushAllocationCounts(*t);
  return true;
}

// `forget_pages`: the addresses go back to the allocator, so a later object
// there must not inherit this one's first toucher. Returns the block's size
// (0 when it was not tracked).
uint64_t retireAllocation(void *p, bool forget_pages);
// After the real free of a block of `size` bytes (retireAllocation's result):
// a large block may have had a mapping of its own, which the allocator
// unmapped where no interposer sees it, or its edge pages may have been
// trimmed; those pages then start fresh (forgetReleasedEdgePages in
// core/object_fold.h).
void afterFree(void *p, uint64_t size);
// After realloc moved a block of `size` bytes away from `old`: its pages
// forget their first toucher and sharing state (as free() would have done),
// so a later block at those addresses does not inherit them.
void afterMove(void *old, uint64_t size);
// Anonymous mappings: recorded like blocks; unmapping may cover any part.
void recordMapping(void *p, size_t size);
void retireMapping(void *p, size_t size);

}  // namespace numaperf
