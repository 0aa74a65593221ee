#include "probe/noise_plan.h"

#include <algorithm>

namespace numaperf::probe {

std::optional<NoiseMode> parseNoiseMode(const std::string& s) {
  if (s == "none") return NoiseMode::None;
  if (s == "spread") return NoiseMode::Spread;
  if (s == "overload") return NoiseMode::Overload;
  return std::nullopt;
}

const char* noiseModeName(NoiseMode m) {
  switch (m) {
    case NoiseMode::None: return "none";
    case NoiseMode::Spread: return "spread";
    case NoiseMode::Overload: return "overload";
  }
  return "?";
}

uint64_t NoisePlan::bytesOnNode(unsigned node) const {
  uint64_t s = 0;
  for (const auto& l : loaders)
    if (l.node == node) s += l.bufferBytes;
  return s;
}

unsigned nextMemoryNode(const Topology& t, unsigned node) {
  std::vector<unsigned> mem = t.memoryNodes();
  if (mem.empty()) return node;
  for (unsigned m : mem)
    if (m > node) return m;
  return mem.front();
}

uint64_t loaderBufferBytes(const Topology& t, unsigned pu, const std::vector<unsigned>& loaderPus) {
  const uint64_t MiB = 1ull << 20;
  uint64_t bytes = 32 * MiB;
  const PuInfo* p = t.pu(pu);
  if (p && !p->caches.empty()) {
    unsigned sharing = 0;
    for (unsigned q : loaderPus) {
      const PuInfo* qi = t.pu(q);
      if (qi && !qi->caches.empty() && qi->llcId == p->llcId) ++sharing;
    }
    sharing = std::max(1u, sharing);
    uint64_t need = (2 * p->caches.back().sizeBytes + sharing - 1) / sharing;
    need = (need + MiB - 1) / MiB * MiB;
    bytes = std::max(bytes, need);
  }
  return bytes;
}

NoisePlan planNoise(const Topology& t, NoiseMode mode, unsigned testPu, unsigned noisyNode) {
  NoisePlan plan;
  plan.mode = mode;
  if (mode == NoiseMode::None) return plan;
  std::vector<unsigned> loaderPus;
  for (const auto& p : t.pus)
    if (p.os != testPu) loaderPus.push_back(p.os);
  for (unsigned pu : loaderPus) {
    LoaderSpec l;
    l.pu = pu;
    l.node = mode == NoiseMode::Spread ? nextMemoryNode(t, t.pu(pu)->node) : noisyNode;
    l.bufferBytes = loaderBufferBytes(t, pu, loaderPus);
    plan.loaders.push_back(l);
  }
  return plan;
}

}  // namespace numaperf::probe
