// Shared by the bwmodel unit tests: a complete signature from its fractions.
#pragma once

#include "bwmodel/signature.h"

inline numaperf::bwmodel::Signature sig(double st, double local, double pt, unsigned socket) {
  numaperf::bwmodel::SignatureInput in;
  in.staticFraction = st;
  in.localFraction = local;
  in.perThreadFraction = pt;
  in.staticSocket = socket;
  return numaperf::bwmodel::completeSignature(in, "");
}
