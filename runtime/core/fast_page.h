// The thread's inline private-page record (numaperf_fast_page in
// include/numaperf/hook_abi.h). Instrumented code counts accesses to the page
// named there without calling a hook; the runtime names a page only while it
// is private to the thread (first touched by it, no other thread using it)
// and takes it back before another thread's access to it is counted, so the
// inline count is exactly what the hook would have counted.
//
// Naming and taking back race by design: the owner publishes the page and
// then checks that it is still private, the other thread marks the page
// shared (or forgets it) and then clears the owner's record, each with a full
// fence in between, so at least one of them sees the other (publishFastPage,
// dropFastPage). An increment already under way when the page is taken back
// counts one access as private.
#pragma once

#include "core/shadow_memory.h"
#include "numaperf/hook_abi.h"

#include <cstdint>

namespace numaperf {

struct ThreadState;

constexpr unsigned kFastPageWays = NUMAPERF_FAST_PAGE_WAYS;
static_assert(kFastPageWays == 2, "the replacement below picks the other of two ways");

struct FastPageState {
  numaperf_fast_page abi = {{{NUMAPERF_NO_FAST_PAGE, {0, 0}}, {NUMAPERF_NO_FAST_PAGE, {0, 0}}}};
  // Where each way's counts belong (owner_reads/writes); set while the way
  // is given to a page, also when publishing it failed.
  PageEntry *entry[kFastPageWays] = {};
  unsigned recent = 0;  // the way the hooks used last: the other is replaced next
};

inline uint64_t fastPageNumber(uintptr_t addr) { return uint64_t(addr) >> NUMAPERF_FAST_PAGE_SHIFT; }
static_assert(NUMAPERF_FAST_PAGE_SHIFT == kPageShift, "the inline test works on shadow pages");

// Before a thread has a record, and after it exits, the inline test must
// fail: this record's page matches no address. (__numaperf_fast_page itself
// is defined in access_hooks.cpp, with the hooks libnumaperf.so exports.)
extern numaperf_fast_page g_no_fast_page;

// Points the calling thread's __numaperf_fast_page at t's record, or back at
// the record that never matches (thread exit).
void bindFastPage(ThreadState &t);
void unbindFastPage();

// Makes the page of `e` the page of the thread's inline way `way` (the
// caller found it private), unless it stopped being private meanwhile.
void publishFastPage(ThreadState &t, unsigned way, PageEntry *e, uint64_t page);

// Adds the counts of one way (inline and from hooks) to its page entry and
// to the thread's access total.
void flushFastWay(ThreadState &t, unsigned way);

// After the caller made the page at `addr` shared or forgot it (and fenced):
// the first toucher `owner_tag` must no longer count it inline (in any way).
void dropFastPage(uint32_t owner_tag, uintptr_t addr);

// flushFastWay for every way.
void flushThreadPrivateCounts(ThreadState &t);

}  // namespace numaperf
