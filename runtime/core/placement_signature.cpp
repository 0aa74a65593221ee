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

SignatureClassifier::SignatureClassifier(uint32_t threads)
    : wide_users_(std::max<uint32_t>(2, (threads + 1) / 2)) {}

void SignatureClassifier::addShared(Bucket *b, const PageUse &p) {
  double total = double(p.toucher_shared) + double(p.others_shared);
  double own = total > 0 ? double(p.toucher_shared) / total : 0;
  b->own_reads += own * double(p.shared_reads);
  b->own_writes += own * double(p.shared_writes);
  b->other_reads += (1 - own) * double(p.shared_reads);
  b->other_writes += (1 - own) * double(p.shared_writes);
}

void SignatureClassifier::addPage(const PageUse &p) {
  if (p.interleaved) {
    counts_.reads[kInterleavedClass] += double(p.private_reads + p.shared_reads);
    counts_.writes[kInterleavedClass] += double(p.private_writes + p.shared_writes);
    return;
  }
  counts_.writes[kLocalClass] += double(p.private_writes);
  const bool wide = p.others_shared && p.users >= wide_users_;
  if (!wide) counts_.reads[kLocalClass] += double(p.private_reads);
  if (!p.shared_reads && !p.shared_writes) return;
  if (!p.others_shared) {  // nobody but the toucher after all
    counts_.reads[kLocalClass] += double(p.shared_reads);
    counts_.writes[kLocalClass] += double(p.shared_writes);
    return;
  }
  if (wide) {
    Bucket *b = nullptr;
    for (unsigned i = 0; i < wide_count_ && !b; ++i)
      if (wide_[i].tag == p.owner_tag) b = &wide_[i];
    if (!b) b = wide_count_ < kMaxWideTouchers ? &wide_[wide_count_++] : &wide_[kMaxWideTouchers];
    if (b != &wide_[kMaxWideTouchers]) b->tag = p.owner_tag;
    addShared(b, p);
    b->private_reads += double(p.private_reads);
    return;
  }
  Bucket b;
  addShared(&b, p);
  counts_.reads[kLocalClass] += b.own_reads;
  counts_.writes[kLocalClass] += b.own_writes;
  counts_.addStatic(p.owner_tag ? p.owner_tag - 1 : kOtherToucher, b.other_reads, b.other_writes);
}

void SignatureClassifier::addEarlyRemote(uint32_t owner_tag, uint64_t accesses) {
  counts_.addStatic(owner_tag ? owner_tag - 1 : kOtherToucher, double(accesses), 0);
}

void SignatureClassifier::finish(SignatureCounts *out) {
  double total = 0, top = 0;
  unsigned touchers = 0;
  for (unsigned i = 0; i <= kMaxWideTouchers; ++i) {
    const Bucket &b = wide_[i];
    double w = b.own_reads + b.own_writes + b.other_reads + b.other_writes;
    if (w <= 0) continue;  // (private reads alone do not make a toucher)
    ++touchers;
    total += w;
    top = std::max(top, w);
  }
  bool per_thread = touchers >= 2 && top < kDominantToucher * total;
  for (unsigned i = 0; i <= kMaxWideTouchers; ++i) {
    Bucket &b = wide_[i];
    if (per_thread) {
      counts_.reads[kPerThreadClass] += b.own_reads + b.other_reads + b.private_reads;
      counts_.writes[kPerThreadClass] += b.own_writes + b.other_writes;
    } else {
      counts_.reads[kLocalClass] += b.own_reads + b.private_reads;
      counts_.writes[kLocalClass] += b.own_writes;
      uint32_t thread = i < kMaxWideTouchers && b.tag ? b.tag - 1 : kOtherToucher;
      counts_.addStatic(thread, b.other_reads, b.other_writes);
    }
    b = Bucket();
  }
  wide_count_ = 0;
  out->merge(counts_);
  counts_ = SignatureCounts();
}

}  // namespace numaperf
