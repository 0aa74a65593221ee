#include "probe/topology.h"

#include <numa.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "probe/error.h"

namespace numaperf::probe {

const PuInfo* Topology::pu(unsigned os) const {
  for (const auto& p : pus)
    if (p.os == os) return &p;
  return nullptr;
}

const NodeInfo* Topology::node(unsigned os) const {
  for (const auto& n : nodes)
    if (n.os == os) return &n;
  return nullptr;
}

std::vector<unsigned> Topology::cpuNodes() const {
  std::vector<unsigned> out;
  for (const auto& n : nodes)
    if (!n.pus.empty()) out.push_back(n.os);
  return out;
}

std::vector<unsigned> Topology::memoryNodes() const {
  std::vector<unsigned> out;
  for (const auto& n : nodes)
    if (n.memoryBytes > 0) out.push_back(n.os);
  return out;
}

std::optional<uint64_t> Topology::distance(unsigned fromNode, unsigned toNode) const {
  if (distances.empty()) return std::nullopt;
  size_t i = nodes.size(), j = nodes.size();
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k].os == fromNode) i = k;
    if (nodes[k].os == toNode) j = k;
  }
  if (i >= distances.size() || j >= distances[i].size()) return std::nullopt;
  return distances[i][j];
}

uint64_t Topology::lastLevelCacheBytes(unsigned puOs) const {
  const PuInfo* p = pu(puOs);
  if (!p || p->caches.empty()) return 0;
  return p->caches.back().sizeBytes;
}

uint64_t Topology::largestCacheBytes() const {
  uint64_t m = 0;
  for (const auto& p : pus)
    for (const auto& c : p.caches) m = std::max(m, c.sizeBytes);
  return m;
}

std::string formatList(std::vector<unsigned> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(v[i]);
    if (j > i) out += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

std::string Topology::puList() const {
  std::vector<unsigned> v;
  for (const auto& p : pus) v.push_back(p.os);
  return formatList(v);
}

std::string Topology::nodeList() const {
  std::vector<unsigned> v;
  for (const auto& n : nodes) v.push_back(n.os);
  return formatList(v);
}

std::string Topology::memoryNodeList() const { return formatList(memoryNodes()); }

void Topology::restrict(const std::vector<unsigned>& allowedPus, const std::vector<unsigned>& allowedNodes) {
  std::set<unsigned> ap(allowedPus.begin(), allowedPus.end());
  std::set<unsigned> an(allowedNodes.begin(), allowedNodes.end());
  std::vector<PuInfo> keptPus;
  for (auto& p : pus) {
    if (ap.count(p.os)) keptPus.push_back(p);
    else disallowedPus.push_back(p.os);
  }
  pus = std::move(keptPus);
  std::vector<NodeInfo> keptNodes;
  std::vector<size_t> keptIdx;
  for (size_t k = 0; k < nodes.size(); ++k) {
    auto& n = nodes[k];
    if (!an.count(n.os)) {
      disallowedNodes.push_back(n.os);
      continue;
    }
    std::vector<unsigned> kp;
    for (unsigned p : n.pus)
      if (ap.count(p)) kp.push_back(p);
    n.pus = kp;
    keptNodes.push_back(n);
    keptIdx.push_back(k);
  }
  if (!distances.empty()) {
    std::vector<std::vector<uint64_t>> d;
    for (size_t i : keptIdx) {
      std::vector<uint64_t> row;
      for (size_t j : keptIdx) row.push_back(distances[i][j]);
      d.push_back(row);
    }
    distances = d;
  }
  nodes = std::move(keptNodes);
  std::sort(disallowedPus.begin(), disallowedPus.end());
  std::sort(disallowedNodes.begin(), disallowedNodes.end());
}

// ---- hwloc ----

namespace {

hwloc_topology_t initTopology() {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) throw ProbeError("cannot initialise hwloc");
  // Keep disallowed PUs and nodes so that messages can name them.
  hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
  return t;
}

void loadOrThrow(hwloc_topology_t t, const std::string& what) {
  if (hwloc_topology_load(t) != 0) {
    int e = errno;
    hwloc_topology_destroy(t);
    throw ProbeError("cannot load topology (" + what + "): " + std::strerror(e));
  }
}

}  // namespace

HwlocTopology HwlocTopology::thisSystem() {
  hwloc_topology_t t = initTopology();
  loadOrThrow(t, "this system");
  // HWLOC_SYNTHETIC / HWLOC_XMLFILE in the environment make hwloc load
  // something else; say so in the source.
  std::string src = hwloc_topology_is_thissystem(t) ? "this system" : "not this system (HWLOC_XMLFILE/HWLOC_SYNTHETIC?)";
  return HwlocTopology(t, src);
}

HwlocTopology HwlocTopology::synthetic(const std::string& description) {
  hwloc_topology_t t = initTopology();
  if (hwloc_topology_set_synthetic(t, description.c_str()) != 0) {
    hwloc_topology_destroy(t);
    throw ProbeError("bad synthetic topology '" + description + "'");
  }
  loadOrThrow(t, "synthetic " + description);
  return HwlocTopology(t, "synthetic: " + description);
}

HwlocTopology HwlocTopology::xml(const std::string& path) {
  hwloc_topology_t t = initTopology();
  if (hwloc_topology_set_xml(t, path.c_str()) != 0) {
    hwloc_topology_destroy(t);
    throw ProbeError("cannot read topology XML '" + path + "'");
  }
  loadOrThrow(t, "xml " + path);
  return HwlocTopology(t, "xml: " + path);
}

HwlocTopology::HwlocTopology(HwlocTopology&& o) noexcept : topo_(o.topo_), source_(std::move(o.source_)) {
  o.topo_ = nullptr;
}

HwlocTopology::~HwlocTopology() {
  if (topo_) hwloc_topology_destroy(topo_);
}

Topology HwlocTopology::model() const {
  Topology m;
  m.source = source_;
  m.thisSystem = hwloc_topology_is_thissystem(topo_);
  m.packages = std::max(0, hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PACKAGE));

  hwloc_bitmap_t allowedCpus = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo_));
  hwloc_const_nodeset_t allowedNodes = hwloc_topology_get_allowed_nodeset(topo_);
  if (m.thisSystem) {
    // The affinity the process was started with (taskset, numactl -C) is a
    // restriction the user asked for, like a cgroup cpuset.
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo_, bound, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(bound))
      hwloc_bitmap_and(allowedCpus, allowedCpus, bound);
    hwloc_bitmap_free(bound);
  }

  // Nodes.
  int nn = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_NUMANODE);
  std::vector<hwloc_obj_t> nodeObjs;
  for (int i = 0; i < nn; ++i) {
    hwloc_obj_t n = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, i);
    if (!hwloc_bitmap_isset(allowedNodes, n->os_index)) {
      m.disallowedNodes.push_back(n->os_index);
      continue;
    }
    NodeInfo info;
    info.os = n->os_index;
    info.memoryBytes = n->attr ? n->attr->numanode.local_memory : 0;
    info.freeBytes = info.memoryBytes;
    if (m.thisSystem && numa_available() >= 0) {
      long long freeB = 0;
      if (numa_node_size64(static_cast<int>(info.os), &freeB) >= 0 && freeB >= 0) info.freeBytes = static_cast<uint64_t>(freeB);
    }
    m.nodes.push_back(info);
    nodeObjs.push_back(n);
  }
  std::sort(m.disallowedNodes.begin(), m.disallowedNodes.end());

  // PUs. The home node of a PU is the lowest-numbered node whose cpuset
  // holds it (a PU can be local to several, e.g. DRAM and HBM/CXL nodes).
  int np = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PU);
  for (int i = 0; i < np; ++i) {
    hwloc_obj_t p = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_PU, i);
    if (!hwloc_bitmap_isset(allowedCpus, p->os_index)) {
      m.disallowedPus.push_back(p->os_index);
      continue;
    }
    PuInfo info;
    info.os = p->os_index;
    bool haveNode = false;
    for (int k = 0; k < nn; ++k) {
      hwloc_obj_t n = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, k);
      if (n->cpuset && hwloc_bitmap_isset(n->cpuset, p->os_index) && (!haveNode || n->os_index < info.node)) {
        info.node = n->os_index;
        haveNode = true;
      }
    }
    hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo_, HWLOC_OBJ_CORE, p);
    info.core = core ? core->os_index : p->os_index;
    for (hwloc_obj_t a = p->parent; a; a = a->parent) {
      if (!hwloc_obj_type_is_dcache(a->type)) continue;
      CacheInfo c;
      c.level = static_cast<int>(a->attr->cache.depth);
      c.sizeBytes = a->attr->cache.size;
      c.lineBytes = a->attr->cache.linesize ? a->attr->cache.linesize : 64;
      hwloc_bitmap_t both = hwloc_bitmap_alloc();
      hwloc_bitmap_and(both, a->cpuset, allowedCpus);
      c.sharingPus = std::max(1, hwloc_bitmap_weight(both));
      hwloc_bitmap_free(both);
      info.caches.push_back(c);
      info.llcId = static_cast<unsigned>(a->gp_index);
    }
    m.pus.push_back(info);
    for (auto& n : m.nodes)
      if (haveNode && n.os == info.node) n.pus.push_back(info.os);
  }
  hwloc_bitmap_free(allowedCpus);
  std::sort(m.pus.begin(), m.pus.end(), [](const PuInfo& a, const PuInfo& b) { return a.os < b.os; });
  std::sort(m.disallowedPus.begin(), m.disallowedPus.end());
  for (auto& n : m.nodes) std::sort(n.pus.begin(), n.pus.end());

  // Distances between allowed nodes.
  unsigned nr = 1;
  hwloc_distances_s* dist = nullptr;
  if (hwloc_distances_get_by_type(topo_, HWLOC_OBJ_NUMANODE, &nr, &dist, 0, 0) == 0 && nr >= 1 && dist) {
    std::vector<std::vector<uint64_t>> d(m.nodes.size(), std::vector<uint64_t>(m.nodes.size(), 0));
    bool complete = true;
    for (size_t i = 0; i < nodeObjs.size() && complete; ++i)
      for (size_t j = 0; j < nodeObjs.size(); ++j) {
        hwloc_uint64_t v = 0, back = 0;
        if (hwloc_distances_obj_pair_values(dist, nodeObjs[i], nodeObjs[j], &v, &back) != 0) {
          complete = false;
          break;
        }
        d[i][j] = v;
      }
    if (complete) m.distances = d;
    hwloc_distances_release(topo_, dist);
  }
  // Sort nodes by os index (hwloc's logical order usually is, but not always).
  std::vector<size_t> order(m.nodes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m.nodes[a].os < m.nodes[b].os; });
  std::vector<NodeInfo> sorted;
  for (size_t i : order) sorted.push_back(m.nodes[i]);
  if (!m.distances.empty()) {
    std::vector<std::vector<uint64_t>> d;
    for (size_t i : order) {
      std::vector<uint64_t> row;
      for (size_t j : order) row.push_back(m.distances[i][j]);
      d.push_back(row);
    }
    m.distances = d;
  }
  m.nodes = sorted;
  return m;
}

}  // namespace numaperf::probe
