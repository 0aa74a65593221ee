#include "bwmodel/solver.h"

#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {

namespace {

struct Equations {
  std::vector<std::array<double, 4>> a;  // columns: static, local, per-thread, interleaved
  std::vector<double> y;
};

Equations build(const std::vector<Run>& runs, unsigned staticSocket) {
  Equations e;
  for (const auto& r : runs) {
    const size_t n = r.placement.size();
    const Matrix parts[] = {staticMatrix(n, staticSocket), localMatrix(n), perThreadMatrix(r.placement),
                            interleavedMatrix(r.placement)};
    for (size_t i = 0; i < n; ++i) {
      if (r.placement[i] == 0) continue;
      double total = 0;
      for (double v : r.traffic[i]) total += v;
      if (total <= 0) continue;
      for (size_t j = 0; j < n; ++j) {
        e.a.push_back({parts[0][i][j], parts[1][i][j], parts[2][i][j], parts[3][i][j]});
        e.y.push_back(r.traffic[i][j] / total);
      }
    }
  }
  return e;
}

// Solves the k x k system g x = h by Gaussian elimination with partial
// pivoting; false when singular.
bool solve(std::vector<std::vector<double>> g, std::vector<double> h, std::vector<double>& x) {
  const size_t k = h.size();
  for (size_t c = 0; c < k; ++c) {
    size_t piv = c;
    for (size_t r = c + 1; r < k; ++r)
      if (std::fabs(g[r][c]) > std::fabs(g[piv][c])) piv = r;
    if (std::fabs(g[piv][c]) < 1e-12) return false;
    std::swap(g[piv], g[c]);
    std::swap(h[piv], h[c]);
    for (size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      double f = g[r][c] / g[c][c];
      for (size_t q = c; q < k; ++q) g[r][q] -= f * g[c][q];
      h[r] -= f * h[c];
    }
  }
  x.resize(k);
  for (size_t c = 0; c < k; ++c) x[c] = h[c] / g[c][c];
  return true;
}

unsigned rank4(const Equations& e) {
  // Rank of the Gram matrix A^T A (4 x 4), by elimination.
  double g[4][4] = {};
  for (const auto& row : e.a)
    for (int p = 0; p < 4; ++p)
      for (int q = 0; q < 4; ++q) g[p][q] += row[p] * row[q];
  unsigned rank = 0;
  bool used[4] = {};
  for (int c = 0; c < 4; ++c) {
    int piv = -1;
    for (int r = 0; r < 4; ++r)
      if (!used[r] && std::fabs(g[r][c]) > 1e-9 && (piv < 0 || std::fabs(g[r][c]) > std::fabs(g[piv][c]))) piv = r;
    if (piv < 0) continue;
    used[piv] = true;
    ++rank;
    for (int r = 0; r < 4; ++r) {
      if (r == piv) continue;
      double f = g[r][c] / g[piv][c];
      for (int q = 0; q < 4; ++q) g[r][q] -= f * g[piv][q];
    }
  }
  return rank;
}

double sumSquares(const Equations& e, const std::array<double, 4>& x, double* maxDev) {
  double ss = 0;
  if (maxDev) *maxDev = 0;
  for (size_t r = 0; r < e.y.size(); ++r) {
    double pred = 0;
    for (int k = 0; k < 4; ++k) pred += e.a[r][k] * x[k];
    double d = e.y[r] - pred;
    ss += d * d;
    if (maxDev) *maxDev = std::max(*maxDev, std::fabs(d));
  }
  return ss;
}

// Least squares over x >= 0, sum x = 1: every subset of free variables is
// solved exactly (the last free one eliminated through the sum) and the best
// feasible one kept. 15 subsets of at most 3 unknowns.
std::array<double, 4> constrainedFit(const Equations& e, double& bestSs) {
  std::array<double, 4> best{0, 0, 0, 1};
  bestSs = std::numeric_limits<double>::infinity();
  for (unsigned mask = 1; mask < 16; ++mask) {
    std::vector<int> free;
    for (int k = 0; k < 4; ++k)
      if (mask & (1u << k)) free.push_back(k);
    const int last = free.back();
    free.pop_back();
    std::array<double, 4> x{};
    if (free.empty()) {
      x[last] = 1;
    } else {
      const size_t m = free.size();
      std::vector<std::vector<double>> g(m, std::vector<double>(m, 0));
      std::vector<double> h(m, 0), sol;
      for (size_t r = 0; r < e.y.size(); ++r) {
        std::vector<double> d(m);
        for (size_t p = 0; p < m; ++p) d[p] = e.a[r][free[p]] - e.a[r][last];
        double rhs = e.y[r] - e.a[r][last];
        for (size_t p = 0; p < m; ++p) {
          h[p] += d[p] * rhs;
          for (size_t q = 0; q < m; ++q) g[p][q] += d[p] * d[q];
        }
      }
      if (!solve(g, h, sol)) continue;
      double rest = 1;
      bool feasible = true;
      for (size_t p = 0; p < m; ++p) {
        if (sol[p] < -1e-12) feasible = false;
        x[free[p]] = std::max(0.0, sol[p]);
        rest -= sol[p];
      }
      if (rest < -1e-12) feasible = false;
      x[last] = std::max(0.0, rest);
      if (!feasible) continue;
    }
    double ss = sumSquares(e, x, nullptr);
    if (ss < bestSs - 1e-15) {
      bestSs = ss;
      best = x;
    }
  }
  return best;
}

}  // namespace

Fit fitSignature(const std::vector<Run>& runs) {
  if (runs.size() < 2) throw BwmodelError("the signature needs at least two runs (the paper's two-run procedure)");
  const size_t n = runs.front().placement.size();
  for (size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    std::ostringstream where;
    where << "run " << r + 1 << ": ";
    if (run.placement.size() != n) throw BwmodelError(where.str() + "placement has a different number of sockets");
    if (totalThreads(run.placement) == 0) throw BwmodelError(where.str() + "placement has no threads");
    if (run.traffic.size() != n) throw BwmodelError(where.str() + "traffic needs one row per socket");
    for (const auto& row : run.traffic) {
      if (row.size() != n) throw BwmodelError(where.str() + "traffic needs one column per memory bank (socket)");
      for (double v : row)
        if (!std::isfinite(v) || v < 0) throw BwmodelError(where.str() + "traffic must be finite and >= 0");
    }
  }
  Fit best;
  double bestSs = std::numeric_limits<double>::infinity();
  for (unsigned s = 0; s < n; ++s) {
    Equations e = build(runs, s);
    if (e.y.empty()) throw BwmodelError("no traffic from any socket with threads");
    if (rank4(e) < 4) {
      std::ostringstream o;
      o << "the runs' placements do not determine the signature (with the static data on socket " << s
        << "): use two runs with unequal thread counts mirrored over two sockets, such as 3,1 and 1,3 (equal "
           "counts cannot tell per-thread from interleaved traffic; all threads on one socket cannot tell static "
           "data there from local data)";
      throw BwmodelError(o.str());
    }
    double ss = 0;
    auto x = constrainedFit(e, ss);
    if (ss < bestSs - 1e-15) {
      bestSs = ss;
      best.signature.staticFraction = x[0];
      best.signature.localFraction = x[1];
      best.signature.perThreadFraction = x[2];
      best.signature.interleavedFraction = x[3];
      best.signature.staticSocket = s;
      best.cells = static_cast<unsigned>(e.y.size());
      best.residual = std::sqrt(ss / e.y.size());
      sumSquares(e, x, &best.maxDeviation);
    }
  }
  return best;
}

Matrix modelTraffic(const Signature& s, const Placement& p, double threadBandwidth) {
  Matrix m = trafficMatrix(s, p);
  for (size_t i = 0; i < p.size(); ++i)
    for (double& v : m[i]) v *= p[i] * threadBandwidth;
  return m;
}

}  // namespace numaperf::bwmodel
