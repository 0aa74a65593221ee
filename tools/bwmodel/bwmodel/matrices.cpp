#include "bwmodel/matrices.h"

#include <sstream>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {

static Matrix zeros(size_t n) { return Matrix(n, std::vector<double>(n, 0.0)); }

Matrix staticMatrix(unsigned sockets, unsigned staticSocket) {
  Matrix m = zeros(sockets);
  for (auto& row : m) row.at(staticSocket) = 1.0;
  return m;
}

Matrix localMatrix(unsigned sockets) {
  Matrix m = zeros(sockets);
  for (unsigned i = 0; i < sockets; ++i) m[i][i] = 1.0;
  return m;
}

Matrix perThreadMatrix(const Placement& p) {
  Matrix m = zeros(p.size());
  double n = totalThreads(p);
  if (n == 0) return m;
  for (auto& row : m)
    for (size_t j = 0; j < p.size(); ++j) row[j] = p[j] / n;
  return m;
}

Matrix interleavedMatrix(const Placement& p) {
  Matrix m = zeros(p.size());
  unsigned s = usedSockets(p);
  if (s == 0) return m;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = 0; j < p.size(); ++j)
      if (p[i] > 0 && p[j] > 0) m[i][j] = 1.0 / s;
  return m;
}

Matrix trafficMatrix(const Signature& s, const Placement& p) {
  unsigned n = static_cast<unsigned>(p.size());
  if (s.staticSocket >= n) {
    std::ostringstream o;
    o << "static socket " << s.staticSocket << " does not exist: the placement has " << n
      << (n == 1 ? " socket (0)" : " sockets (0-" + std::to_string(n - 1) + ")");
    throw BwmodelError(o.str());
  }
  const Matrix parts[] = {staticMatrix(n, s.staticSocket), localMatrix(n), perThreadMatrix(p), interleavedMatrix(p)};
  const double weights[] = {s.staticFraction, s.localFraction, s.perThreadFraction, s.interleavedFraction};
  Matrix m = zeros(n);
  for (int k = 0; k < 4; ++k)
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = 0; j < n; ++j) m[i][j] += weights[k] * parts[k][i][j];
  return m;
}

}  // namespace numaperf::bwmodel
