// What one object (or all objects of one allocation site) did: the counts
// taken from shadow memory when the object is folded (freed, unloaded, or at
// exit), plus the evidence the fix advice needs. Plain data: folded under the
// owner's lock, read once at report time.
#pragma once

#include "core/placement_signature.h"

#include <cstdint>

namespace numaperf {

constexpr uint32_t kMixedThreads = 0xffffffffu;  // a page used by several threads
constexpr unsigned kMaxSegments = 24;
constexpr unsigned kMaxSites = 8;
constexpr unsigned kMaxDominantThreads = 64;

// A run of consecutive pages of an object used mainly by one thread
// (thread index) or by several (kMixedThreads). Pages are numbered from the
// object's first page.
struct PageSegment {
  uint32_t first_page = 0;
  uint32_t last_page = 0;
  uint32_t thread = 0;
};

struct SiteCount {
  uintptr_t pc = 0;
  uint64_t count = 0;
};

// Word-level picture of one contended cache line of the object.
struct LineEvidence {
  bool valid = false;
  int64_t offset = 0;  // line start minus object start (negative: the line begins before it)
  uint64_t invalidations = 0;
  uint32_t first_tag[16] = {};  // per 4-byte word: owner tags (index + 1)
  uint32_t other_tag[16] = {};
  uint8_t written[16] = {};
};

struct ObjectProfile {
  // Counts (summed over instances).
  uint64_t remote = 0;                // predicted remote accesses
  uint64_t remote_in_sharing_pages = 0;  // of those, in pages dominated by invalidations
  // Those pages' invalidations and the lines that had any: how hard each
  // line was fought over (docs/scores.md, remote_access).
  uint64_t sharing_page_invalidations = 0;
  uint64_t sharing_page_lines = 0;
  uint64_t invalidations = 0;
  uint64_t invalidations_true = 0;
  uint64_t invalidations_false = 0;
  uint64_t shared_reads = 0;   // reads of the object's shared pages
  uint64_t shared_writes = 0;  // writes of the object's shared pages
  uint64_t reads_after_last_write = 0;
  uint64_t shared_pages = 0;         // pages used by 2+ threads at some point
  uint64_t single_thread_pages = 0;  // ... of which one thread made >= 90% of accesses
  uint32_t max_threads_per_page = 0;
  // Pages left out of the model (page_sampling.h): the counts above are
  // then estimates from the object's sampled pages.
  uint64_t pages_sampled_away = 0;
  // Other threads' accesses counted on those pages (each a remote access in
  // the threads' totals) and the shared pages among them; what the model
  // saw on the sampled pages (remote accesses, out of accesses of threads
  // other than the first toucher); and, once applySampleEstimate turned the
  // rest into estimates, the remote accesses estimated for those pages.
  uint64_t sampled_away_counted = 0;
  uint64_t sampled_away_shared_pages = 0;
  uint64_t sampled_modelled_remote = 0;
  uint64_t sampled_modelled_others = 0;
  uint64_t sampled_away_estimated = 0;
  // Lines modelled in time windows only (line_windows.h) for part of their
  // life: their invalidations and remote accesses are estimates.
  uint64_t lines_sampled_in_windows = 0;
  SignatureCounts signature;  // accesses by bandwidth class (placement_signature.h)

  // Evidence of the instance with the most remote accesses and invalidations.
  uint64_t evidence_weight = 0;
  uint64_t object_pages = 0;
  uint32_t segment_count = 0;
  bool segments_truncated = false;
  PageSegment segments[kMaxSegments];
  uint32_t dominant_thread_count = 0;  // distinct threads dominating some page
  uint32_t dominant_threads[kMaxDominantThreads] = {};
  SiteCount sites[kMaxSites];
  LineEvidence false_sharing_line;  // the line with most false-sharing invalidations
  LineEvidence true_sharing_line;   // the line with most true-sharing invalidations

  // Adds another instance's counts; takes its evidence when it weighs more.
  void merge(const ObjectProfile &other);
  void addSite(uintptr_t pc, uint64_t count);
};

}  // namespace numaperf

#include "common/spin_lock.h"

namespace numaperf {

// The profile of an allocation site or global, created on its first
// non-empty fold (most sites never need one).
class ProfileAccumulator {
 public:
  void add(const ObjectProfile &instance);
  // nullptr when nothing was ever folded in. Read at report time.
  const ObjectProfile *get() const { return profile_; }

 private:
  SpinLock lock_;
  ObjectProfile *profile_ = nullptr;
};

}  // namespace numaperf
