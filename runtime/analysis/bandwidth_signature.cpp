#include "analysis/bandwidth_signature.h"

#include <algorithm>

namespace numaperf {
namespace {

report::SignatureShares shares(const double (&counts)[kSignatureClasses],
                               const SignatureCounts &c, bool reads) {
  report::SignatureShares k;
  for (unsigned i = 0; i < kSignatureClasses; ++i) k.accesses += counts[i];
  if (k.accesses <= 0) return k;
  k.static_share = counts[kStaticClass] / k.accesses;
  k.local = counts[kLocalClass] / k.accesses;
  k.per_thread = counts[kPerThreadClass] / k.accesses;
  k.interleaved = counts[kInterleavedClass] / k.accesses;
  double top = 0;
  for (uint32_t i = 0; i < c.toucher_count; ++i) {
    const StaticToucher &t = c.touchers[i];
    double w = reads ? t.reads : t.writes;
    if (w > top && t.thread != kOtherToucher) top = w, k.static_thread = t.thread;
  }
  return k;
}

std::vector<report::StaticToucherShare> touchers(const SignatureCounts &c) {
  std::vector<report::StaticToucherShare> out;
  for (uint32_t i = 0; i < c.toucher_count; ++i) {
    const StaticToucher &t = c.touchers[i];
    report::StaticToucherShare s;
    if (t.thread != kOtherToucher) s.thread = t.thread;
    s.reads = t.reads;
    s.writes = t.writes;
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
    return a.reads + a.writes > b.reads + b.writes;
  });
  return out;
}

}  // namespace

std::optional<report::BandwidthSignature> buildBandwidthSignature(
    const std::vector<ObjectTotals> &objects) {
  SignatureCounts program;
  std::vector<const ObjectTotals *> weighed;
  for (const ObjectTotals &t : objects) {
    if (t.profile.signature.total() <= 0) continue;
    program.merge(t.profile.signature);
    weighed.push_back(&t);
  }
  if (program.total() <= 0) return std::nullopt;
  report::BandwidthSignature sig;
  sig.read = shares(program.reads, program, true);
  sig.write = shares(program.writes, program, false);
  sig.static_threads = touchers(program);
  std::stable_sort(weighed.begin(), weighed.end(), [](const ObjectTotals *a, const ObjectTotals *b) {
    return a->profile.signature.total() > b->profile.signature.total();
  });
  for (const ObjectTotals *t : weighed) {
    if (sig.objects.size() == kSignatureObjects) {
      ++sig.objects_omitted;
      continue;
    }
    const SignatureCounts &c = t->profile.signature;
    report::ObjectSignature o;
    o.object = t->object;
    o.read = shares(c.reads, c, true);
    o.write = shares(c.writes, c, false);
    o.static_threads = touchers(c);
    sig.objects.push_back(std::move(o));
  }
  return sig;
}

}  // namespace numaperf
