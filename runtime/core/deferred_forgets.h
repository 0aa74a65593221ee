// Pages a thread freed blocks on while they were private to it, whose
// first toucher is forgotten later rather than at each free.
//
// A page a freed block only partly covers forgets its first toucher when it
// stayed private to the freeing thread (docs/design.md, "Objects and
// attribution"): glibc hands an exited thread's arena, blocks and pages, to
// the next new thread, which must not inherit the old one's pages. Doing it
// at every free made a thread that frees and reallocates a small block in a
// loop (a vector per iteration) forget and claim the same page each time,
// with its neighbours' first toucher and inline way: about 10% of
// `montecarlo` (docs/benchmarks.md, session 22). The hand-over happens only
// once the thread is gone, so the forget waits: a small per-thread table of
// such pages, a page forgotten when another takes its slot or when the
// thread exits, and then only if it is still private to the thread.
#pragma once

#include <cstdint>

namespace numaperf {

struct ThreadState;

constexpr unsigned kDeferredForgets = 32;  // a power of two

struct DeferredForgets {
  uintptr_t pages[kDeferredForgets] = {};  // page addresses, 0: empty
};

// The page at `page` (page-aligned), private to `t`, the calling thread,
// which just freed a block on it.
void deferPageForget(ThreadState &t, uintptr_t page);
// Forgets every page `t` deferred that is still private to it; the calling
// thread is `t`, exiting while the process runs on. (A forked child keeps
// the forking thread's table: the pages are that thread's there too.)
void forgetDeferredPages(ThreadState &t);

}  // namespace numaperf
