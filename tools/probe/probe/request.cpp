#include "probe/request.h"

#include <algorithm>
#include <map>

#include "probe/error.h"

namespace numaperf::probe {

namespace {
const uint64_t KiB = 1024, MiB = 1024 * KiB;

std::string mib(uint64_t b) { return std::to_string((b + MiB / 2) / MiB) + " MiB"; }
}  // namespace

uint64_t usableBytes(const NodeInfo& n) {
  uint64_t reserve = std::min<uint64_t>(n.freeBytes / 8, 512 * MiB);
  return n.freeBytes > reserve ? n.freeBytes - reserve : 0;
}

uint64_t defaultDramBufferBytes(const Topology& t, unsigned node) {
  uint64_t want = std::max<uint64_t>(256 * MiB, 4 * t.largestCacheBytes());
  uint64_t p = 1;
  while (p < want) p <<= 1;
  if (const NodeInfo* n = t.node(node)) {
    uint64_t cap = usableBytes(*n) / 2;
    while (p > 4 * MiB && p > cap) p >>= 1;
  }
  return p;
}

unsigned checkPu(const Topology& t, long long pu) {
  if (pu >= 0 && t.pu(static_cast<unsigned>(pu))) return static_cast<unsigned>(pu);
  bool disallowed = pu >= 0 && std::count(t.disallowedPus.begin(), t.disallowedPus.end(), static_cast<unsigned>(pu));
  throw ProbeError("PU " + std::to_string(pu) + (disallowed ? " is outside this process's allowed CPUs" : " does not exist") +
                   "; valid PUs: " + t.puList());
}

unsigned checkMemoryNode(const Topology& t, long long node, const char* what) {
  std::string w = what;
  if (node < 0 || !t.node(static_cast<unsigned>(node))) {
    bool disallowed = node >= 0 && std::count(t.disallowedNodes.begin(), t.disallowedNodes.end(), static_cast<unsigned>(node));
    throw ProbeError(w + " " + std::to_string(node) + (disallowed ? " is outside this process's allowed memory nodes" : " does not exist") +
                     "; valid nodes: " + t.memoryNodeList());
  }
  if (t.node(static_cast<unsigned>(node))->memoryBytes == 0)
    throw ProbeError(w + " " + std::to_string(node) + " has no memory; nodes with memory: " + t.memoryNodeList());
  return static_cast<unsigned>(node);
}

unsigned defaultPu(const Topology& t) {
  if (t.pus.empty()) throw ProbeError("no PU is allowed for this process");
  for (const auto& p : t.pus) {
    const NodeInfo* n = t.node(p.node);
    if (n && n->memoryBytes > 0) return p.os;
  }
  return t.pus.front().os;
}

unsigned nearestMemoryNode(const Topology& t, unsigned pu) {
  std::vector<unsigned> mem = t.memoryNodes();
  if (mem.empty()) throw ProbeError("no memory node is allowed for this process");
  const PuInfo* p = t.pu(pu);
  unsigned home = p ? p->node : mem.front();
  if (std::count(mem.begin(), mem.end(), home)) return home;
  unsigned best = mem.front();
  uint64_t bestD = UINT64_MAX;
  for (unsigned m : mem) {
    uint64_t d = t.distance(home, m).value_or(UINT64_MAX - 1);
    if (d < bestD) best = m, bestD = d;
  }
  return best;
}

void checkFits(const Topology& t, uint64_t testBytes, unsigned testNode, const NoisePlan& noise) {
  std::map<unsigned, uint64_t> need;
  need[testNode] += testBytes;
  for (const auto& l : noise.loaders) need[l.node] += l.bufferBytes;
  for (const auto& [node, bytes] : need) {
    const NodeInfo* n = t.node(node);
    if (!n) continue;
    uint64_t usable = usableBytes(*n);
    if (bytes <= usable) continue;
    std::string what;
    if (node == testNode && testBytes > usable)
      what = "buffer of " + mib(testBytes) + " does not fit in node " + std::to_string(node);
    else
      what = "buffers of " + mib(bytes) + " (test buffer and noisy loaders) do not fit in node " + std::to_string(node);
    throw ProbeError(what + "'s free memory (" + mib(n->freeBytes) + " free, at most " + mib(usable) +
                     " usable); use a smaller --buffer or another node");
  }
}

std::optional<PagePolicy> parsePagePolicy(const std::string& s) {
  if (s == "huge") return PagePolicy::Huge;
  if (s == "small") return PagePolicy::Small;
  if (s == "default") return PagePolicy::Default;
  return std::nullopt;
}

const char* pagePolicyName(PagePolicy p) {
  switch (p) {
    case PagePolicy::Huge: return "huge";
    case PagePolicy::Small: return "small";
    case PagePolicy::Default: return "default";
  }
  return "?";
}

LatencyConfig resolveLatency(const Topology& t, const LatencyArgs& a) {
  LatencyConfig c;
  auto mode = parseNoiseMode(a.noise);
  if (!mode) throw ProbeError("--noise '" + a.noise + "' is not a noise mode; valid: none, spread, overload");
  c.noiseMode = *mode;
  auto pages = parsePagePolicy(a.pages);
  if (!pages) throw ProbeError("--pages '" + a.pages + "' is not a page policy; valid: huge, small, default");
  c.pages = *pages;
  if (a.pattern != "random" && a.pattern != "local")
    throw ProbeError("--pattern '" + a.pattern + "' is not a chase pattern; valid: random, local");
  c.localPattern = a.pattern == "local";
  c.pu = a.pu ? checkPu(t, *a.pu) : defaultPu(t);
  c.node = a.node ? checkMemoryNode(t, *a.node, "node") : nearestMemoryNode(t, c.pu);

  if (a.bufferKiB && *a.bufferKiB < 1)
    throw ProbeError("--buffer must be at least 1 KiB (got " + std::to_string(*a.bufferKiB) + ")");
  if (a.bufferKiB && static_cast<uint64_t>(*a.bufferKiB) > (uint64_t(1) << 28))
    throw ProbeError("--buffer must be at most 268435456 KiB (256 GiB)");
  if (a.workloadKiB && *a.workloadKiB < 1)
    throw ProbeError("--workload must be at least 1 KiB (got " + std::to_string(*a.workloadKiB) + ")");
  if (a.repeat && (*a.repeat < 1 || *a.repeat > 1000))
    throw ProbeError("--repeat must be between 1 and 1000 (got " + std::to_string(*a.repeat) + ")");
  c.bufferBytes = a.bufferKiB ? static_cast<uint64_t>(*a.bufferKiB) * KiB : defaultDramBufferBytes(t, c.node);
  c.repeat = a.repeat ? static_cast<unsigned>(*a.repeat) : 7;
  // Default workload: 2 Mi accesses (128 MiB of cache lines) in total.
  c.workloadBytes = a.workloadKiB ? static_cast<uint64_t>(*a.workloadKiB) * KiB : 128 * MiB;

  if (a.noisyNode && c.noiseMode != NoiseMode::Overload)
    throw ProbeError("--noisy-node is only used with --noise overload");
  if (c.noiseMode == NoiseMode::Overload)
    c.noisyNode = a.noisyNode ? checkMemoryNode(t, *a.noisyNode, "noisy node") : c.node;
  c.noise = planNoise(t, c.noiseMode, c.pu, c.noisyNode);
  if (c.noiseMode != NoiseMode::None && c.noise.loaders.empty())
    c.notes.push_back("no PU other than the test PU is allowed: measuring without noisy loaders");
  if (t.memoryNodes().size() == 1 && c.noiseMode == NoiseMode::Spread)
    c.notes.push_back("one NUMA node: spread loaders read from node " + std::to_string(c.node) + " like the test thread");
  checkFits(t, c.bufferBytes, c.node, c.noise);  // the sweep allocates the largest size once
  return c;
}

}  // namespace numaperf::probe
