// The bandwidth signature a profile carries (report::BandwidthSignature,
// from the runtime's page classification; docs/bwmodel.md) turned into the
// model's Signature for a placement, and the what-if arithmetic of
// `numaperf placement`: the program's class weights with one object's
// accesses moved to another class (the effect of a fix).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "bwmodel/machine.h"
#include "bwmodel/signature.h"
#include "report/profile_model.h"

namespace numaperf::bwmodel {

enum class TrafficClass { Static, Local, PerThread, Interleaved };

// Access weights of one kind (reads or writes) by class; static weight also
// by the thread that first touched it (nullopt: touchers past the profile's
// table).
struct KindWeights {
  double staticW = 0, localW = 0, perThreadW = 0, interleavedW = 0;
  std::vector<std::pair<std::optional<uint32_t>, double>> staticByThread;
  double total() const { return staticW + localW + perThreadW + interleavedW; }
};

struct ClassWeights {
  KindWeights read, write;
  double total() const { return read.total() + write.total(); }
};

ClassWeights programWeights(const report::BandwidthSignature& sig);
ClassWeights objectWeights(const report::ObjectSignature& obj);

// `program` with `object`'s accesses taken out of their classes and put into
// `target` (interleaving an object makes it interleaved; duplicating it or
// allocating it where it is used makes it local).
ClassWeights moveObject(const ClassWeights& program, const ClassWeights& object, TrafficClass target);

// Which socket each thread index runs on: threads fill the placement's
// slots in index order (the first n0 on socket 0, ...); `roundRobin` deals
// them out one per socket in turn instead. Thread t uses slot t mod N.
unsigned socketOfThread(uint32_t thread, const Placement& p, bool roundRobin);

// Round-robin and packed placements of `threads` threads on the machine
// (packed fills socket 0's PUs first). Throws BwmodelError when the machine
// has fewer PUs than threads.
Placement roundRobinPlacement(unsigned threads, const Machine& m);
Placement packedPlacement(unsigned threads, const Machine& m);

// The model signature of one kind under a placement: fractions of the
// weights; the static socket is the socket of the thread that touched most
// of the static data (all static traffic is assumed to go there). A kind
// without accesses gives an all-local signature.
Signature modelSignature(const KindWeights& k, const Placement& p, bool roundRobin);

}  // namespace numaperf::bwmodel
