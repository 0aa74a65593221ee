// What the allocation interceptors do besides calling the real allocator:
// record a new block with its allocation stack, and retire a block (folding
// its shadow counts into its allocation site).
#pragma once

#include <cstddef>
#include <cstdint>

namespace numaperf {

// True when this allocation should be recorded (profiling on, and the call
// does not come from the runtime itself).
bool shouldTrackAllocations();
void recordAllocation(void *p, size_t size);
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
