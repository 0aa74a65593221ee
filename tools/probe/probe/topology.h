// Topology model over hwloc: the nodes, PUs and caches the probes may use.
//
// PU and node numbers are the operating system's (P# in lstopo, as used by
// numactl, taskset and /sys), never hwloc logical indexes. Only what this
// process may use is in the model: PUs outside the allowed cpuset (cgroup
// cpuset and the affinity mask the process was started with) and nodes
// outside the allowed nodeset are listed separately, so that messages can say
// "exists but not allowed". Offline CPUs are not in hwloc's topology at all.
#pragma once
#include <hwloc.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace numaperf::probe {

struct CacheInfo {
  int level = 0;            // 1, 2, 3, ...
  uint64_t sizeBytes = 0;
  unsigned lineBytes = 64;
  unsigned sharingPus = 1;  // allowed PUs below this cache
};

struct PuInfo {
  unsigned os = 0;
  unsigned node = 0;        // os index of its home node (see homeNode in topology.cpp)
  unsigned core = 0;        // os index of its core (or of the PU itself)
  std::vector<CacheInfo> caches;  // data/unified caches, innermost first
  unsigned llcId = 0;       // identifies the last-level cache instance (for sharing)
};

struct NodeInfo {
  unsigned os = 0;
  uint64_t memoryBytes = 0;
  uint64_t freeBytes = 0;   // from libnuma on this system, = memoryBytes otherwise
  std::vector<unsigned> pus;  // allowed PUs whose home node this is (os indexes, sorted)
};

class Topology {
 public:
  std::vector<NodeInfo> nodes;  // allowed nodes, sorted by os index
  std::vector<PuInfo> pus;      // allowed PUs, sorted by os index
  std::vector<unsigned> disallowedPus;    // exist, but outside the allowed set
  std::vector<unsigned> disallowedNodes;
  // distances[i][j] between nodes[i] and nodes[j] (hwloc's relative latency
  // matrix, 10 = local); empty when the platform gives none.
  std::vector<std::vector<uint64_t>> distances;
  unsigned packages = 0;
  bool thisSystem = false;
  std::string source;  // "this system", "synthetic: ...", "xml: ..."

  const PuInfo* pu(unsigned os) const;
  const NodeInfo* node(unsigned os) const;
  std::vector<unsigned> cpuNodes() const;     // nodes with allowed PUs
  std::vector<unsigned> memoryNodes() const;  // nodes with memory
  std::optional<uint64_t> distance(unsigned fromNode, unsigned toNode) const;
  // Largest data cache seen from a PU (0 when hwloc reports none).
  uint64_t lastLevelCacheBytes(unsigned puOs) const;
  uint64_t largestCacheBytes() const;

  std::string puList() const;    // "0-3,8-11"
  std::string nodeList() const;
  std::string memoryNodeList() const;

  // Keep only the given PUs and nodes (as a restricted cpuset would); used by
  // tests to model cpusets on synthetic topologies.
  void restrict(const std::vector<unsigned>& allowedPus, const std::vector<unsigned>& allowedNodes);
};

// Compresses sorted numbers into "0-3,8".
std::string formatList(std::vector<unsigned> values);

// Owns an hwloc topology.
class HwlocTopology {
 public:
  static HwlocTopology thisSystem();
  static HwlocTopology synthetic(const std::string& description);
  static HwlocTopology xml(const std::string& path);
  HwlocTopology(HwlocTopology&& other) noexcept;
  HwlocTopology& operator=(HwlocTopology&&) = delete;
  HwlocTopology(const HwlocTopology&) = delete;
  ~HwlocTopology();
  hwloc_topology_t get() const { return topo_; }
  // The model of what this process may use.
  Topology model() const;

 private:
  explicit HwlocTopology(hwloc_topology_t t, std::string source) : topo_(t), source_(std::move(source)) {}
  hwloc_topology_t topo_ = nullptr;
  std::string source_;
};

}  // namespace numaperf::probe
