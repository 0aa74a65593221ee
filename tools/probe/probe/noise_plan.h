// Which PUs run noisy loaders and on which node each loader's buffer lives.
//
//   spread:   a loader on every allowed PU except the test PU; a loader whose
//             PU is on node n reads a buffer on the memory node following n
//             (in the sorted list of allowed memory nodes, cyclically): the
//             seed's (n + 1) % nodes, made well defined for sparse node
//             numbers, CPU-less nodes and memoryless nodes.
//   overload: the same loaders, all reading buffers on one noisy node.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/topology.h"

namespace numaperf::probe {

enum class NoiseMode { None, Spread, Overload };

std::optional<NoiseMode> parseNoiseMode(const std::string& s);
const char* noiseModeName(NoiseMode m);

struct LoaderSpec {
  unsigned pu = 0;
  unsigned node = 0;       // buffer node
  uint64_t bufferBytes = 0;
};

struct NoisePlan {
  NoiseMode mode = NoiseMode::None;
  std::vector<LoaderSpec> loaders;
  uint64_t bytesOnNode(unsigned node) const;
};

// Memory node after `node` in the allowed memory nodes, cyclically.
unsigned nextMemoryNode(const Topology& t, unsigned node);

// Per-loader buffer: at least 32 MiB (the seed's size) and, together with the
// other loaders under the same last-level cache, at least twice that cache,
// so loaders really reach memory on hosts with very large L3s.
uint64_t loaderBufferBytes(const Topology& t, unsigned pu, const std::vector<unsigned>& loaderPus);

// noisyNode is only used (and required) for Overload. Assumes the inputs were
// validated (see request.h).
NoisePlan planNoise(const Topology& t, NoiseMode mode, unsigned testPu, unsigned noisyNode);

}  // namespace numaperf::probe
