#include "counters/posterior.h"

#include <algorithm>
#include <cmath>

namespace numaperf::counters {

double Posterior::sd(size_t i) const { return std::sqrt(std::max(0.0, cov[i][i])); }

namespace {

// Cholesky of a symmetric positive semi-definite matrix, skipping pivots that
// vanish (dependent rows); `keep[j]` is false for those. Then S^-1 b on the
// kept rows (dropped components are zero).
struct PivotedCholesky {
  std::vector<std::vector<double>> l;
  std::vector<bool> keep;

  explicit PivotedCholesky(const std::vector<std::vector<double>>& s) {
    size_t k = s.size();
    l.assign(k, std::vector<double>(k, 0.0));
    keep.assign(k, true);
    for (size_t j = 0; j < k; ++j) {
      double d = s[j][j];
      for (size_t p = 0; p < j; ++p) d -= l[j][p] * l[j][p];
      if (!(d > 1e-12 * std::max(s[j][j], 1e-300))) {
        keep[j] = false;
        continue;
      }
      l[j][j] = std::sqrt(d);
      for (size_t i = j + 1; i < k; ++i) {
        double v = s[i][j];
        for (size_t p = 0; p < j; ++p) v -= l[i][p] * l[j][p];
        l[i][j] = v / l[j][j];
      }
    }
  }

  std::vector<double> solve(std::vector<double> b) const {
    size_t k = b.size();
    for (size_t i = 0; i < k; ++i) {
      if (!keep[i]) {
        b[i] = 0;
        continue;
      }
      for (size_t p = 0; p < i; ++p) b[i] -= l[i][p] * b[p];
      b[i] /= l[i][i];
    }
    for (size_t i = k; i-- > 0;) {
      if (!keep[i]) continue;
      for (size_t p = i + 1; p < k; ++p) b[i] -= l[p][i] * b[p];
      b[i] /= l[i][i];
    }
    return b;
  }
};

}  // namespace

Posterior conditionOnInvariants(const std::vector<double>& mean, const std::vector<double>& var,
                                const LinearSystem& sys) {
  size_t n = mean.size(), k = sys.size();
  Posterior post;
  post.mean = mean;
  post.cov.assign(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) post.cov[i][i] = var[i];
  if (k == 0) return post;

  const auto& a = sys.rows;
  // Rows scaled to unit largest prior standard deviation keep S well
  // conditioned when events differ by orders of magnitude.
  std::vector<std::vector<double>> s(k, std::vector<double>(k, 0.0));
  for (size_t p = 0; p < k; ++p)
    for (size_t q = p; q < k; ++q) {
      double v = 0;
      for (size_t i = 0; i < n; ++i) v += a[p][i] * var[i] * a[q][i];
      s[p][q] = s[q][p] = v;
    }
  for (size_t p = 0; p < k; ++p) {
    if (sys.tolerance[p] <= 0) continue;
    double scale = 0;
    for (size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(a[p][i] * mean[i]));
    s[p][p] += std::pow(sys.tolerance[p] * scale, 2);
  }
  PivotedCholesky chol(s);

  // K = D A' S^-1, one column of S^-1 A D per event.
  std::vector<double> am(k);
  for (size_t p = 0; p < k; ++p) am[p] = rowResidual(a[p], mean);
  std::vector<double> w = chol.solve(am);
  for (size_t i = 0; i < n; ++i) {
    double v = 0;
    for (size_t p = 0; p < k; ++p) v += a[p][i] * w[p];
    post.mean[i] = mean[i] - var[i] * v;
  }
  for (size_t j = 0; j < n; ++j) {
    std::vector<double> col(k);
    for (size_t p = 0; p < k; ++p) col[p] = a[p][j] * var[j];
    bool any = false;
    for (double c : col) any = any || c != 0;
    if (!any) continue;
    std::vector<double> z = chol.solve(col);
    for (size_t i = 0; i < n; ++i) {
      double v = 0;
      for (size_t p = 0; p < k; ++p) v += a[p][i] * z[p];
      post.cov[i][j] -= var[i] * v;
    }
  }
  // Symmetrise and clip rounding below zero on the diagonal.
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) post.cov[i][j] = post.cov[j][i] = 0.5 * (post.cov[i][j] + post.cov[j][i]);
    post.cov[i][i] = std::max(post.cov[i][i], 0.0);
  }
  return post;
}

}  // namespace numaperf::counters
