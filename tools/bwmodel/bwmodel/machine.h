// The machine the model places threads on: its sockets (CPU NUMA nodes, each
// with the memory bank attached to it, as in the paper), from hwloc (this
// host, a synthetic description or an XML export) or, without a topology, an
// abstract machine with as many sockets as the placement names.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace numaperf::bwmodel {

struct Socket {
  unsigned node = 0;            // NUMA node os index (P#); = index on abstract machines
  std::optional<unsigned> pus;  // allowed PUs; nullopt = unlimited (abstract)
};

struct Machine {
  std::string source;  // "abstract", "this system", "synthetic: ...", "xml: ..."
  std::vector<Socket> sockets;
  std::vector<unsigned> memoryOnlyNodes;  // CPU-less memory nodes: outside the model
};

// "host", "synthetic:DESC" or "xml:FILE". Throws BwmodelError on a bad spec
// or an hwloc failure.
Machine loadMachine(const std::string& spec);
Machine abstractMachine(unsigned sockets);

// Threads per socket, in socket order.
using Placement = std::vector<unsigned>;

// "3,1" -> {3, 1}. Throws BwmodelError on malformed input.
Placement parsePlacement(const std::string& text);

// The placement must name every socket of the machine (zeros allowed), at
// least one thread, and no more threads on a socket than its PUs. Throws
// BwmodelError with a message naming the machine's sockets.
void validatePlacement(const Placement& p, const Machine& m);

unsigned totalThreads(const Placement& p);
unsigned usedSockets(const Placement& p);

}  // namespace numaperf::bwmodel
