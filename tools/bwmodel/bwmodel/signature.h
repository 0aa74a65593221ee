// A bandwidth signature (Goodman, Haecki, Harris, "Modeling memory bandwidth
// patterns on NUMA machines with performance counters"): the fractions of a
// thread's memory traffic that are static (all on the static socket's bank),
// local (the thread's own socket), per-thread (each thread's share allocated
// locally, used by all) and interleaved (spread over the used sockets).
// Reads and writes have separate signatures.
#pragma once
#include <optional>
#include <string>

namespace numaperf::bwmodel {

struct Signature {
  double staticFraction = 0.0;
  double localFraction = 0.0;
  double perThreadFraction = 0.0;
  double interleavedFraction = 1.0;
  unsigned staticSocket = 0;  // socket index (0-based, in socket order)

  bool operator==(const Signature& o) const;
  bool operator!=(const Signature& o) const { return !(*this == o); }
};

// The fractions as given by the user; missing ones are nullopt.
struct SignatureInput {
  std::optional<double> staticFraction, localFraction, perThreadFraction, interleavedFraction;
  std::optional<unsigned> staticSocket;
};

// Checks and completes a signature: each given fraction in [0, 1]; if the
// interleaved fraction is not given it is the remainder 1 - (static + local +
// per-thread), which must be >= 0; if it is given, the four must sum to 1 (to
// within 1e-9). Missing static/local/per-thread fractions are 0. `what` names
// the signature in messages ("read", "write" or ""). Throws BwmodelError.
Signature completeSignature(const SignatureInput& in, const std::string& what);

// Tolerance used for "sums to 1".
constexpr double kFractionTolerance = 1e-9;

}  // namespace numaperf::bwmodel
