#include "bwmodel/profile_signature.h"

#include <algorithm>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {
namespace {

KindWeights kindWeights(const report::SignatureShares& s,
                        const std::vector<report::StaticToucherShare>& touchers, bool reads) {
  KindWeights k;
  k.staticW = s.accesses * s.static_share;
  k.localW = s.accesses * s.local;
  k.perThreadW = s.accesses * s.per_thread;
  k.interleavedW = s.accesses * s.interleaved;
  double listed = 0;
  for (const auto& t : touchers) {
    double w = reads ? t.reads : t.writes;
    if (w <= 0) continue;
    k.staticByThread.emplace_back(t.thread, w);
    listed += w;
  }
  // Older or hand-written files may give only static_thread.
  if (k.staticW > 0 && listed <= 0) k.staticByThread.emplace_back(s.static_thread, k.staticW);
  return k;
}

void addStatic(KindWeights& k, std::optional<uint32_t> thread, double w) {
  for (auto& [t, v] : k.staticByThread)
    if (t == thread) {
      v = std::max(0.0, v + w);
      return;
    }
  if (w > 0) k.staticByThread.emplace_back(thread, w);
}

KindWeights moveKind(const KindWeights& p, const KindWeights& o, TrafficClass target) {
  KindWeights k = p;
  k.staticW = std::max(0.0, k.staticW - o.staticW);
  k.localW = std::max(0.0, k.localW - o.localW);
  k.perThreadW = std::max(0.0, k.perThreadW - o.perThreadW);
  k.interleavedW = std::max(0.0, k.interleavedW - o.interleavedW);
  for (const auto& [t, w] : o.staticByThread) addStatic(k, t, -w);
  double moved = o.total();
  switch (target) {
    case TrafficClass::Static: k.staticW += moved; break;  // not a fix; kept for completeness
    case TrafficClass::Local: k.localW += moved; break;
    case TrafficClass::PerThread: k.perThreadW += moved; break;
    case TrafficClass::Interleaved: k.interleavedW += moved; break;
  }
  return k;
}

std::vector<unsigned> slots(const Placement& p, bool roundRobin) {
  std::vector<unsigned> out;
  if (!roundRobin) {
    for (unsigned s = 0; s < p.size(); ++s) out.insert(out.end(), p[s], s);
    return out;
  }
  std::vector<unsigned> left = p;
  for (bool placed = true; placed;) {
    placed = false;
    for (unsigned s = 0; s < left.size(); ++s)
      if (left[s]) --left[s], out.push_back(s), placed = true;
  }
  return out;
}

}  // namespace

ClassWeights programWeights(const report::BandwidthSignature& sig) {
  return {kindWeights(sig.read, sig.static_threads, true), kindWeights(sig.write, sig.static_threads, false)};
}

ClassWeights objectWeights(const report::ObjectSignature& obj) {
  return {kindWeights(obj.read, obj.static_threads, true), kindWeights(obj.write, obj.static_threads, false)};
}

ClassWeights moveObject(const ClassWeights& program, const ClassWeights& object, TrafficClass target) {
  return {moveKind(program.read, object.read, target), moveKind(program.write, object.write, target)};
}

unsigned socketOfThread(uint32_t thread, const Placement& p, bool roundRobin) {
  std::vector<unsigned> s = slots(p, roundRobin);
  if (s.empty()) throw BwmodelError("the placement has no threads");
  return s[thread % s.size()];
}

Placement roundRobinPlacement(unsigned threads, const Machine& m) {
  Placement p(m.sockets.size(), 0);
  unsigned left = threads;
  for (bool placed = true; left && placed;) {
    placed = false;
    for (size_t s = 0; s < p.size() && left; ++s)
      if (!m.sockets[s].pus || p[s] < *m.sockets[s].pus) ++p[s], --left, placed = true;
  }
  if (left) throw BwmodelError("the machine has fewer PUs than the " + std::to_string(threads) + " threads");
  return p;
}

Placement packedPlacement(unsigned threads, const Machine& m) {
  Placement p(m.sockets.size(), 0);
  unsigned left = threads;
  for (size_t s = 0; s < p.size() && left; ++s) {
    unsigned take = m.sockets[s].pus ? std::min(left, *m.sockets[s].pus) : left;
    p[s] = take;
    left -= take;
  }
  if (left) throw BwmodelError("the machine has fewer PUs than the " + std::to_string(threads) + " threads");
  return p;
}

Signature modelSignature(const KindWeights& k, const Placement& p, bool roundRobin) {
  Signature s;
  double total = k.total();
  if (total <= 0) {
    s.localFraction = 1;
    s.interleavedFraction = 0;
    return s;
  }
  s.staticFraction = k.staticW / total;
  s.localFraction = k.localW / total;
  s.perThreadFraction = k.perThreadW / total;
  s.interleavedFraction = std::max(0.0, 1 - s.staticFraction - s.localFraction - s.perThreadFraction);
  std::optional<uint32_t> top;
  double best = 0;
  for (const auto& [t, w] : k.staticByThread)
    if (t && w > best) best = w, top = t;
  s.staticSocket = top ? socketOfThread(*top, p, roundRobin) : 0;
  return s;
}

}  // namespace numaperf::bwmodel
