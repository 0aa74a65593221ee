#include "probe/placement.h"

#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "probe/error.h"

namespace numaperf::probe {

void bindThreadToPu(hwloc_topology_t topo, unsigned puOs) {
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_bitmap_only(set, puOs);
  int rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
  int e = errno;
  hwloc_bitmap_free(set);
  if (rc != 0)
    throw ProbeError("cannot bind a thread to PU " + std::to_string(puOs) + ": " + std::strerror(e) +
                     (e == EPERM ? " (no permission to bind)" : ""));
  if (hwloc_topology_is_thissystem(topo)) {
    sched_yield();
    int cpu = sched_getcpu();
    if (cpu >= 0 && static_cast<unsigned>(cpu) != puOs)
      throw ProbeError("bound to PU " + std::to_string(puOs) + " but running on CPU " + std::to_string(cpu));
  }
}

NodeBuffer::NodeBuffer(size_t bytes, unsigned node, PagePolicy pages) : bytes_(bytes), node_(node) {
  long page = sysconf(_SC_PAGESIZE);
  size_t align = pages == PagePolicy::Huge ? (2u << 20) : static_cast<size_t>(page);
  mapped_ = (bytes + align - 1) / align * align + (pages == PagePolicy::Huge ? align : 0);
  void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw ProbeError("cannot map " + std::to_string(bytes >> 20) + " MiB for node " + std::to_string(node) + ": " +
                     std::strerror(errno));
  map_ = p;
  base_ = p;
  if (pages == PagePolicy::Huge) {
    // Align the start on 2 MiB so that transparent huge pages can back it.
    uintptr_t a = (reinterpret_cast<uintptr_t>(p) + align - 1) & ~(uintptr_t(align) - 1);
    base_ = reinterpret_cast<void*>(a);
    madvise(p, mapped_, MADV_HUGEPAGE);
  } else if (pages == PagePolicy::Small) {
    madvise(p, mapped_, MADV_NOHUGEPAGE);
  }
  if (numa_available() < 0) {
    if (node != 0) {
      munmap(p, mapped_);
      map_ = nullptr;
      throw ProbeError("this kernel has no NUMA support: only node 0 exists");
    }
    return;
  }
  int possible = numa_num_possible_nodes();
  if (possible < static_cast<int>(node) + 1) possible = static_cast<int>(node) + 1;
  std::vector<unsigned long> mask(static_cast<size_t>(possible) / (8 * sizeof(unsigned long)) + 1, 0);
  mask[node / (8 * sizeof(unsigned long))] |= 1ul << (node % (8 * sizeof(unsigned long)));
  if (mbind(p, mapped_, MPOL_BIND, mask.data(), mask.size() * 8 * sizeof(unsigned long) + 1, MPOL_MF_STRICT) != 0) {
    int e = errno;
    munmap(p, mapped_);
    map_ = base_ = nullptr;
    throw ProbeError("cannot bind memory to node " + std::to_string(node) + ": " + std::strerror(e) +
                     (e == EPERM ? " (no permission)" : e == EINVAL ? " (node not allowed?)" : ""));
  }
}

NodeBuffer::~NodeBuffer() {
  if (map_) munmap(map_, mapped_);
}

void NodeBuffer::touch() {
  long page = sysconf(_SC_PAGESIZE);
  volatile char* c = static_cast<char*>(base_);
  for (size_t off = 0; off < bytes_; off += static_cast<size_t>(page)) c[off] = 0;
}

PlacementCheck NodeBuffer::verify(size_t maxPages) const {
  PlacementCheck r;
  if (numa_available() < 0 || bytes_ == 0) return r;
  long page = sysconf(_SC_PAGESIZE);
  size_t pages = (bytes_ + static_cast<size_t>(page) - 1) / static_cast<size_t>(page);
  size_t n = std::min(pages, maxPages);
  std::vector<void*> addrs(n);
  std::vector<int> status(n, -1);
  for (size_t i = 0; i < n; ++i) {
    size_t idx = n == pages ? i : (i * pages) / n;
    addrs[i] = static_cast<char*>(base_) + idx * static_cast<size_t>(page);
  }
  if (move_pages(0, n, addrs.data(), nullptr, status.data(), 0) != 0) return r;
  r.known = true;
  r.sampled = n;
  for (int s : status)
    if (s == static_cast<int>(node_)) ++r.onNode;
  return r;
}

}  // namespace numaperf::probe
