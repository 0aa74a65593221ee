#include "core/object_profile.h"

#include <algorithm>

namespace numaperf {

void ObjectProfile::addSite(uintptr_t pc, uint64_t count) {
  if (!pc || !count) return;
  SiteCount *weakest = &sites[0];
  for (SiteCount &s : sites) {
    if (s.pc == pc) {
      s.count += count;
      return;
    }
    if (s.count < weakest->count) weakest = &s;
  }
  if (count > weakest->count) *weakest = SiteCount{pc, count};
}

void ObjectProfile::merge(const ObjectProfile &o) {
  remote += o.remote;
  remote_in_sharing_pages += o.remote_in_sharing_pages;
  sharing_page_invalidations += o.sharing_page_invalidations;
  sharing_page_lines += o.sharing_page_lines;
  invalidations += o.invalidations;
  invalidations_true += o.invalidations_true;
  invalidations_false += o.invalidations_false;
  shared_reads += o.shared_reads;
  shared_writes += o.shared_writes;
  reads_after_last_write += o.reads_after_last_write;
  shared_pages += o.shared_pages;
  single_thread_pages += o.single_thread_pages;
  pages_sampled_away += o.pages_sampled_away;
  sampled_away_counted += o.sampled_away_counted;
  sampled_away_shared_pages += o.sampled_away_shared_pages;
  sampled_modelled_remote += o.sampled_modelled_remote;
  sampled_modelled_others += o.sampled_modelled_others;
  sampled_away_estimated += o.sampled_away_estimated;
  lines_sampled_in_windows += o.lines_sampled_in_windows;
  max_threads_per_page = std::max(max_threads_per_page, o.max_threads_per_page);
  signature.merge(o.signature);
  for (const SiteCount &s : o.sites) addSite(s.pc, s.count);
  if (o.false_sharing_line.valid &&
      (!false_sharing_line.valid ||
       o.false_sharing_line.invalidations > false_sharing_line.invalidations))
    false_sharing_line = o.false_sharing_line;
  if (o.true_sharing_line.valid &&
      (!true_sharing_line.valid ||
       o.true_sharing_line.invalidations > true_sharing_line.invalidations))
    true_sharing_line = o.true_sharing_line;
  if (o.evidence_weight > evidence_weight) {
    evidence_weight = o.evidence_weight;
    object_pages = o.object_pages;
    segment_count = o.segment_count;
    segments_truncated = o.segments_truncated;
    std::copy(o.segments, o.segments + o.segment_count, segments);
    dominant_thread_count = o.dominant_thread_count;
    std::copy(o.dominant_threads, o.dominant_threads + kMaxDominantThreads, dominant_threads);
  }
}

}  // namespace numaperf

#include "common/internal_alloc.h"

namespace numaperf {

void ProfileAccumulator::add(const ObjectProfile &instance) {
  SpinLockGuard guard(lock_);
  if (!profile_) profile_ = internalNew<ObjectProfile>();
  if (profile_) profile_->merge(instance);
}

}  // namespace numaperf
