// The paper's four traffic matrices and their weighted sum. Rows are CPU
// sockets, columns memory banks (one per socket); a cell is the fraction of a
// thread's traffic on that socket that goes to that bank.
//
//   static       column `staticSocket` all 1, others 0
//   local        identity
//   per-thread   every row is n_j / n (threads on socket j over all threads)
//   interleaved  1/s where both the row and the column are used sockets
//                (s = sockets with threads), 0 elsewhere
//
// Rows of sockets with threads sum to 1. A row of a socket without threads
// has no traffic; it is kept as the paper defines it (its interleaved part
// is 0, so it sums to 1 - interleaved fraction).
#pragma once
#include <vector>

#include "bwmodel/machine.h"
#include "bwmodel/signature.h"

namespace numaperf::bwmodel {

using Matrix = std::vector<std::vector<double>>;

Matrix staticMatrix(unsigned sockets, unsigned staticSocket);
Matrix localMatrix(unsigned sockets);
Matrix perThreadMatrix(const Placement& p);
Matrix interleavedMatrix(const Placement& p);

// Weighted sum of the four for a placement. Throws BwmodelError when the
// static socket is not a socket of the placement.
Matrix trafficMatrix(const Signature& s, const Placement& p);

}  // namespace numaperf::bwmodel
