// Bandwidth kernels: threads bound to the PUs of one node stream over their
// own buffers on a memory node for a fixed time.
//   read:  8-byte loads over the whole buffer (summed)
//   write: 8-byte stores over the whole buffer (not memset: no streaming stores)
//   mixed: copy of one half of the buffer onto the other (1 read : 1 write)
// Bytes counted are bytes loaded plus bytes stored by the program.
#pragma once
#include <hwloc.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace numaperf::probe {

enum class BwKind { Read, Write, Mixed };
const char* bwKindName(BwKind k);

struct BandwidthResult {
  double gbPerSecond = 0;  // 1e9 bytes per second
  double seconds = 0;
  uint64_t bytes = 0;
  unsigned threads = 0;
};

// One pass of a kernel over [p, p + bytes); exposed for tests and loaders.
uint64_t readKernel(const void* p, size_t bytes);
void writeKernel(void* p, size_t bytes, uint64_t value);
void copyKernel(void* dst, const void* src, size_t bytes);

BandwidthResult measureBandwidth(hwloc_topology_t topo, const std::vector<unsigned>& pus, unsigned memNode, BwKind kind,
                                 uint64_t bytesPerThread, double seconds);

}  // namespace numaperf::probe
