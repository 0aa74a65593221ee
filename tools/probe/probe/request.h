// Validation of the user's latency request against the topology, with the
// defaults filled in. Every problem the user can fix is a ProbeError whose
// message names the valid range.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/noise_plan.h"
#include "probe/placement.h"
#include "probe/topology.h"

namespace numaperf::probe {

struct LatencyArgs {
  std::optional<long long> pu, node, bufferKiB, workloadKiB, noisyNode;
  std::string noise = "none";
  std::optional<long long> repeat;
  bool sweep = false;
  std::string pages = "huge";
  std::string pattern = "random";
};

struct LatencyConfig {
  unsigned pu = 0;
  unsigned node = 0;
  uint64_t bufferBytes = 0;
  uint64_t workloadBytes = 0;  // accessed in the timed repetitions, in total
  unsigned repeat = 0;
  NoiseMode noiseMode = NoiseMode::None;
  unsigned noisyNode = 0;
  NoisePlan noise;
  PagePolicy pages = PagePolicy::Huge;
  bool localPattern = false;  // --pattern local (see ChaseBuffer)
  std::vector<std::string> notes;  // said once, on stderr
};

// Largest buffer a probe may put on a node: its free memory minus a reserve
// for the rest of the system.
uint64_t usableBytes(const NodeInfo& n);

// A buffer comfortably larger than every cache: max(256 MiB, 4 x largest
// cache), rounded up to a power of two, limited by the node's usable memory.
uint64_t defaultDramBufferBytes(const Topology& t, unsigned node);

unsigned checkPu(const Topology& t, long long pu);
unsigned checkMemoryNode(const Topology& t, long long node, const char* what);
// The default test PU and the node closest to a PU that has memory.
unsigned defaultPu(const Topology& t);
unsigned nearestMemoryNode(const Topology& t, unsigned pu);
// Throws when the buffers planned on each node exceed its usable memory.
void checkFits(const Topology& t, uint64_t testBytes, unsigned testNode, const NoisePlan& noise);

std::optional<PagePolicy> parsePagePolicy(const std::string& s);
const char* pagePolicyName(PagePolicy p);

LatencyConfig resolveLatency(const Topology& t, const LatencyArgs& a);

}  // namespace numaperf::probe
