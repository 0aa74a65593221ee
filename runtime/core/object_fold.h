// Folding: taking (reading and resetting) what shadow memory gathered about a
// byte range, when the object there is freed or unloaded, or at exit.
//
// Attribution rules (see docs/design.md): per-line remote counts are split
// between objects sharing a line in proportion to the bytes each covers;
// per-line sharing state goes to the object holding the line's middle byte,
// per-page state (threads, reads, writes, access sites) to the object
// holding the page's middle byte. Pages wholly inside a retired range forget
// their first toucher and drop their detail, so reused addresses start
// fresh.
#pragma once

#include "core/object_profile.h"

#include <cstdint>

namespace numaperf {

struct PageDetail;
struct PageEntry;

// A page whose invalidations exceed `sharing_share` x its remote accesses is
// dominated by sharing: its remote accesses are reported as sharing, not as
// a placement problem (they still count in the totals).
void setSharingDominanceShare(double share);

// Whether no hook ever counted anything anywhere (always so while profiling
// has not been on yet): nothing to fold, flush or forget.
bool nothingTouched();

// Whether no hook ever counted anything on the range's pages (or it was
// taken since): no first toucher, no counts, no detail. The common case for
// blocks freed while profiling is off or never touched by instrumented
// code; every free asks, so callers skip setting up an ObjectProfile.
bool rangeUntouched(uintptr_t start, uintptr_t end);

// Fills `out` (which must be zeroed) with the range's counts and evidence.
// Returns true when anything was counted. Counts on pages sampled away
// (core/page_sampling.h) are only tallied: see applySampleEstimate.

// `claim_start` / `claim_end`, when given, widen the bytes the object takes
// its share of a line's remote counts by (lines it shares with other
// objects, without word detail, are shared out by bytes): a heap block
// claims its allocator chunk, header and slack included, so that the
// blocks on a line take all of its count between them.
bool takeObjectProfile(uintptr_t start, uintptr_t end, bool forget_pages, ObjectProfile *out,
                       uintptr_t claim_start = 0, uintptr_t claim_end = 0);

// Turns the tallies of pages sampled away in `p`, the merged profile of an
// allocation site or global, into estimates from its sampled pages
// (docs/sampling.md). Called once per site, at report time.
void applySampleEstimate(ObjectProfile *p);

// After a heap block was freed: its first and last pages, which it may share
// with other blocks and so keep their state when it is folded, start fresh
// if the allocator gave them back to the kernel: unmapped (a block of its own
// mapping, through an internal munmap no interposer sees) or mapped but no
// longer resident (glibc trims the top of a heap with MADV_DONTNEED). Either
// way the next touch there allocates a new physical page: a new first touch.
// Keeps errno.
void forgetReleasedEdgePages(uintptr_t start, uint64_t size);
// Pages lying wholly inside [start, start + size) start fresh (a block that
// realloc moved away; its counts were folded before).
void forgetWholePages(uintptr_t start, uint64_t size);

// The page at `addr` starts fresh: no first toucher, counts or detail.
void forgetPage(PageEntry *e, uintptr_t addr);

// Whether a page whose first toucher is `owner`, with `counted_remote`
// (early remote accesses) and detail `d`, stayed private to thread `tag`:
// no other thread reached it.
bool pageKeptPrivate(uint32_t tag, uint32_t owner, bool counted_remote, const PageDetail *d);

}  // namespace numaperf
