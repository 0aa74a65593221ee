#include "bwmodel/signature.h"

#include <cmath>
#include <sstream>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {

bool Signature::operator==(const Signature& o) const {
  return staticFraction == o.staticFraction && localFraction == o.localFraction &&
         perThreadFraction == o.perThreadFraction && interleavedFraction == o.interleavedFraction &&
         staticSocket == o.staticSocket;
}

namespace {
std::string prefix(const std::string& what) { return what.empty() ? "" : what + " "; }

double checked(const std::optional<double>& v, const char* name, const std::string& what) {
  if (!v) return 0.0;
  if (!std::isfinite(*v) || *v < 0.0 || *v > 1.0) {
    std::ostringstream m;
    m << prefix(what) << name << " fraction " << *v << " is outside [0, 1]";
    throw BwmodelError(m.str());
  }
  return *v;
}
}  // namespace

Signature completeSignature(const SignatureInput& in, const std::string& what) {
  Signature s;
  s.staticFraction = checked(in.staticFraction, "static", what);
  s.localFraction = checked(in.localFraction, "local", what);
  s.perThreadFraction = checked(in.perThreadFraction, "per-thread", what);
  double three = s.staticFraction + s.localFraction + s.perThreadFraction;
  if (in.interleavedFraction) {
    s.interleavedFraction = checked(in.interleavedFraction, "interleaved", what);
    double sum = three + s.interleavedFraction;
    if (std::fabs(sum - 1.0) > kFractionTolerance) {
      std::ostringstream m;
      m << prefix(what) << "fractions static + local + per-thread + interleaved sum to " << sum
        << ", not 1 (omit the interleaved fraction to make it the remainder)";
      throw BwmodelError(m.str());
    }
  } else {
    if (three > 1.0 + kFractionTolerance) {
      std::ostringstream m;
      m << prefix(what) << "fractions static + local + per-thread sum to " << three
        << ", more than 1 (the remainder is the interleaved fraction)";
      throw BwmodelError(m.str());
    }
    s.interleavedFraction = std::max(0.0, 1.0 - three);
  }
  s.staticSocket = in.staticSocket.value_or(0);
  if (s.staticFraction == 0.0 && !in.staticSocket) s.staticSocket = 0;
  return s;
}

}  // namespace numaperf::bwmodel
