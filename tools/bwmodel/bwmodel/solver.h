// Signature from counters: the paper's two-run procedure as a pure function.
//
// Each run gives a placement and the measured traffic (bytes or GB/s, reads
// or writes) from every CPU socket to every memory bank. Counters of memory
// traffic per bank alone do not suffice: summed over the CPU sockets, local
// and per-thread traffic both put n_j / n of the traffic on bank j, so the
// traffic must be split by requesting socket (home-agent / link counters, or
// per-socket local/remote DRAM counters).
//
// Every used row, normalised to sum to 1, is matched to the model's row
//   S [j = static socket] + L [i = j] + P n_j / n + I [j used] / s
// by least squares with S, L, P, I >= 0 and S + L + P + I = 1, for every
// candidate static socket; the best fit wins (ties: the lowest socket). The
// residual is the RMS difference over all fitted cells: near 0 when the model
// describes the program, large when it does not (e.g. threads that access
// data at rates unrelated to their execution, the paper's limitation).
//
// The placements must determine the signature for every candidate static
// socket: two runs with unequal thread counts mirrored over two sockets
// (3,1 and 1,3) do. Equal counts cannot tell per-thread from interleaved
// traffic, and a run with all threads on the static socket cannot tell static
// from local data there, so (4,0) + (3,1) is not enough.
#pragma once
#include <vector>

#include "bwmodel/matrices.h"
#include "bwmodel/signature.h"

namespace numaperf::bwmodel {

struct Run {
  Placement placement;
  Matrix traffic;  // [CPU socket][memory bank], >= 0
};

struct Fit {
  Signature signature;
  double residual = 0;     // RMS over the fitted cells
  double maxDeviation = 0; // largest absolute cell difference
  unsigned cells = 0;
};

// Throws BwmodelError on inconsistent sizes, negative traffic, fewer than two
// runs, no traffic, or placements that do not determine the signature.
Fit fitSignature(const std::vector<Run>& runs);

// Traffic the model predicts for a run: threads(i) * bandwidth * M[i][j].
Matrix modelTraffic(const Signature& s, const Placement& p, double threadBandwidth);

}  // namespace numaperf::bwmodel
