// A cap on the runtime's own memory (NUMAPERF_MEMORY_LIMIT, MiB). The
// runtime's records that keep the program's profile correct (threads,
// objects, stacks) are always allocated; optional detail (page, line and
// word detail of shared pages, per-page thread lists) is refused once the
// internal allocator has mapped the limit, and the refusals are counted for
// the report. Shadow memory's page table is reserved address space and is
// not counted.
#pragma once

#include <cstdint>

namespace numaperf {

// 0 = no limit (the default).
void setMemoryLimitBytes(uint64_t bytes);
uint64_t memoryLimitBytes();
// True when a detail allocation may map more memory; false (and one more
// refusal counted) when the runtime's memory is at or over the limit.
bool detailAllocationAllowed();
// Detail allocations refused so far (a page refused detail asks again at
// each remote access, so this counts those accesses too).
uint64_t detailAllocationsDropped();

}  // namespace numaperf
