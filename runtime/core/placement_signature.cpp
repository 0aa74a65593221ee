#include "core/placement_signature.h"

#include <algorithm>

namespace numaperf {
namespace {

constexpr double kDominantToucher = 0.9;  // share of wide-page accesses that makes them static

}  // namespace

void SignatureCounts::addStatic(uint32_t thread, double r, double w) {
  if (r <= 0 && w <= 0) return;
  reads[kStaticClass] += r;
  writes[kStaticClass] += w;
  StaticToucher *slot = nullptr;
  for (uint32_t i = 0; i < toucher_count; ++i)
    if (touchers[i].thread == thread) slot = &touchers[i];
  if (!slot && toucher_count < kMaxStaticTouchers - 1) {
    slot = &touchers[toucher_count++];
    slot->thread = thread;
  }
  if (!slot) {  // the last slot gathers the rest
    slot = &touchers[kMaxStaticTouchers - 1];
    toucher_count = kMaxStaticTouchers;
    slot->thread = kOtherToucher;
  }
  slot->reads += r;
  slot->writes += w;
}

void SignatureCounts::merge(const SignatureCounts &o) {
  for (unsigned c = 0; c < kSignatureClasses; ++c) {
    if (c == kStaticClass) continue;
    reads[c] += o.reads[c];
    writes[c] += o.writes[c];
  }
  for (uint32_t i = 0; i < o.toucher_count; ++i)
    addStatic(o.touchers[i].thread, o.touchers[i].reads, o.touchers[i].writes);
}

double SignatureCounts::total() const {
  double t = 0;
  for (unsigned c = 0; c < kSignatureClasses; ++c) t += reads[c] + writes[c];
  return t;
}

SignatureClassifier::Group *SignatureClassifier::groupFor(uint32_t tag, uint32_t users) {
  for (unsigned i = 0; i < group_count_; ++i)
    if (groups_[i].tag == tag && groups_[i].users == users) return &groups_[i];
  if (group_count_ < kMaxGroups) {
    Group &g = groups_[group_count_++];
    g = Group{tag, users, 0, 0, 0, 0, 0};
    return &g;
  }
  // Full (many touchers with many user counts): join the toucher's widest
  // group, else the last one.
  Group *best = nullptr;
  for (unsigned i = 0; i < group_count_; ++i)
    if (groups_[i].tag == tag && (!best || groups_[i].users > best->users)) best = &groups_[i];
  return best ? best : &groups_[kMaxGroups - 1];
}

void SignatureClassifier::addPage(const PageUse &p) {
  if (p.interleaved) {
    // The other threads' part apart: scaleOthers may weigh it up.
    const double shared = double(p.toucher_shared) + double(p.others_shared);
    const double others = shared > 0 ? double(p.others_shared) / shared : 0;
    interleaved_other_reads_ += others * double(p.shared_reads);
    interleaved_other_writes_ += others * double(p.shared_writes);
    counts_.reads[kInterleavedClass] += double(p.private_reads) + (1 - others) * double(p.shared_reads);
    counts_.writes[kInterleavedClass] +=
        double(p.private_writes) + (1 - others) * double(p.shared_writes);
    return;
  }
  counts_.writes[kLocalClass] += double(p.private_writes);
  if (!p.others_shared || (!p.shared_reads && !p.shared_writes)) {
    // Nobody but the toucher (so far as the counts go): local.
    counts_.reads[kLocalClass] += double(p.private_reads + p.shared_reads);
    counts_.writes[kLocalClass] += double(p.shared_writes);
    return;
  }
  user_bits_ |= p.user_bits;
  Group *g = groupFor(p.owner_tag, p.users);
  double total = double(p.toucher_shared) + double(p.others_shared);
  double own = double(p.toucher_shared) / total;
  g->own_reads += own * double(p.shared_reads);
  g->own_writes += own * double(p.shared_writes);
  g->other_reads += (1 - own) * double(p.shared_reads);
  g->other_writes += (1 - own) * double(p.shared_writes);
  g->private_reads += double(p.private_reads);
}

void SignatureClassifier::addEarlyRemote(uint32_t owner_tag, uint64_t accesses) {
  counts_.addStatic(owner_tag ? owner_tag - 1 : kOtherToucher, double(accesses), 0);
}

void SignatureClassifier::addSampledAway(const PageUse &p) {
  if (p.interleaved) {
    addPage(p);
    return;
  }
  counts_.writes[kLocalClass] += double(p.private_writes);
  unsigned i = 0;
  while (i < away_count_ && away_[i].tag != p.owner_tag) ++i;
  if (i == away_count_) {
    if (away_count_ == kMaxAwayTouchers) {  // many touchers: the rest are local
      counts_.reads[kLocalClass] += double(p.private_reads);
      return;
    }
    away_[away_count_++] = AwayReads{p.owner_tag, 0};
  }
  away_[i].reads += double(p.private_reads);
}

void SignatureClassifier::scaleOthers(double f) {
  for (unsigned i = 0; i < group_count_; ++i) {
    groups_[i].other_reads *= f;
    groups_[i].other_writes *= f;
  }
  interleaved_other_reads_ *= f;
  interleaved_other_writes_ *= f;
}

// Static: the toucher's own accesses go to its node, which is the static one.
void SignatureClassifier::classifyNarrow(const Group &g) {
  counts_.reads[kLocalClass] += g.own_reads + g.private_reads;
  counts_.writes[kLocalClass] += g.own_writes;
  counts_.addStatic(g.tag ? g.tag - 1 : kOtherToucher, g.other_reads, g.other_writes);
}

void SignatureClassifier::finish(SignatureCounts *out) {
  counts_.reads[kInterleavedClass] += interleaved_other_reads_;
  counts_.writes[kInterleavedClass] += interleaved_other_writes_;
  const uint32_t users = uint32_t(__builtin_popcountll(user_bits_));
  const uint32_t wide_users = std::max<uint32_t>(2, (users + 1) / 2);
  // Wide pages' weight by toucher.
  struct Toucher {
    uint32_t tag;
    double weight;
  };
  Toucher touchers[kMaxGroups];
  unsigned toucher_count = 0;
  double total = 0, top = 0;
  for (unsigned i = 0; i < group_count_; ++i) {
    const Group &g = groups_[i];
    if (g.users < wide_users) continue;
    double w = g.own_reads + g.own_writes + g.other_reads + g.other_writes;
    unsigned t = 0;
    while (t < toucher_count && touchers[t].tag != g.tag) ++t;
    if (t == toucher_count) touchers[toucher_count++] = Toucher{g.tag, 0};
    touchers[t].weight += w;
    total += w;
  }
  for (unsigned t = 0; t < toucher_count; ++t) top = std::max(top, touchers[t].weight);
  const bool per_thread = toucher_count >= 2 && top < kDominantToucher * total;
  for (unsigned i = 0; i < group_count_; ++i) {
    const Group &g = groups_[i];
    if (per_thread && g.users >= wide_users) {
      counts_.reads[kPerThreadClass] += g.own_reads + g.other_reads + g.private_reads;
      counts_.writes[kPerThreadClass] += g.own_writes + g.other_writes;
    } else {
      classifyNarrow(g);
    }
  }
  // The touchers' reads of pages sampled away: per-thread when the
  // toucher's sampled pages are, else local (as on a narrow page).
  for (unsigned a = 0; a < away_count_; ++a) {
    bool wide = false;
    for (unsigned i = 0; i < group_count_ && !wide; ++i)
      wide = groups_[i].tag == away_[a].tag && groups_[i].users >= wide_users;
    counts_.reads[per_thread && wide ? kPerThreadClass : kLocalClass] += away_[a].reads;
  }
  away_count_ = 0;
  group_count_ = 0;
  user_bits_ = 0;
  out->merge(counts_);
  counts_ = SignatureCounts();
}

}  // namespace numaperf
