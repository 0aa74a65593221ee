// Placement: binding the calling thread to a PU, memory on a node, and
// checking where the pages really are.
#pragma once
#include <hwloc.h>

#include <cstddef>
#include <string>

namespace numaperf::probe {

// Binds the calling thread to one PU (os index) and checks it runs there.
// Throws ProbeError (e.g. no permission) with the reason.
void bindThreadToPu(hwloc_topology_t topo, unsigned puOs);

enum class PagePolicy { Default, Small, Huge };

struct PlacementCheck {
  bool known = false;     // move_pages answered
  size_t sampled = 0;
  size_t onNode = 0;
  double fraction() const { return sampled ? double(onNode) / double(sampled) : 0.0; }
};

// Anonymous memory bound (MPOL_BIND, strict) to one node. Pages are only
// allocated when first touched; fill the buffer, then verify().
class NodeBuffer {
 public:
  NodeBuffer(size_t bytes, unsigned node, PagePolicy pages = PagePolicy::Default);
  ~NodeBuffer();
  NodeBuffer(const NodeBuffer&) = delete;
  NodeBuffer& operator=(const NodeBuffer&) = delete;
  void* data() const { return base_; }
  size_t size() const { return bytes_; }
  unsigned node() const { return node_; }
  // Touches every page (writing zeros) so that it is allocated now.
  void touch();
  // Samples up to maxPages pages with move_pages(2) (query mode).
  PlacementCheck verify(size_t maxPages = 256) const;

 private:
  void* map_ = nullptr;   // what mmap returned
  void* base_ = nullptr;  // start of the usable range (aligned)
  size_t bytes_ = 0;
  size_t mapped_ = 0;
  unsigned node_ = 0;
};

}  // namespace numaperf::probe
