#include <gtest/gtest.h>

#include "counters/posterior.h"

using namespace numaperf::counters;

namespace {

LinearSystem sumRow(std::vector<double> row, double tol = 0) {
  LinearSystem s;
  s.rows.push_back(std::move(row));
  s.tolerance.push_back(tol);
  s.names.push_back("r");
  return s;
}

}  // namespace

// total = a + b with unit prior variances, by hand:
// residual A m = 10 - 4 - 5 = 1, S = 3, K = (1, -1, -1)/3,
// m' = (29/3, 13/3, 16/3), C' = I - a a'/3.
TEST(Posterior, EqualVariancesByHand) {
  Posterior p = conditionOnInvariants({10, 4, 5}, {1, 1, 1}, sumRow({1, -1, -1}));
  EXPECT_NEAR(p.mean[0], 29.0 / 3, 1e-12);
  EXPECT_NEAR(p.mean[1], 13.0 / 3, 1e-12);
  EXPECT_NEAR(p.mean[2], 16.0 / 3, 1e-12);
  EXPECT_NEAR(p.cov[0][0], 2.0 / 3, 1e-12);
  EXPECT_NEAR(p.cov[0][1], 1.0 / 3, 1e-12);
  EXPECT_NEAR(p.cov[1][2], -1.0 / 3, 1e-12);
  EXPECT_NEAR(p.mean[0] - p.mean[1] - p.mean[2], 0, 1e-12);
}

// The residual goes to the least certain parts, in proportion to their
// variances: total exact, var(a) = 1, var(b) = 4 -> a += 1/5, b += 4/5.
TEST(Posterior, ResidualSharedByVariance) {
  Posterior p = conditionOnInvariants({10, 4, 5}, {1e-12, 1, 4}, sumRow({1, -1, -1}));
  EXPECT_NEAR(p.mean[0], 10, 1e-9);
  EXPECT_NEAR(p.mean[1], 4.2, 1e-9);
  EXPECT_NEAR(p.mean[2], 5.8, 1e-9);
  EXPECT_NEAR(p.cov[1][1], 1 - 1.0 / 5, 1e-9);  // 1 - 1*1/5
  EXPECT_NEAR(p.cov[2][2], 4 - 16.0 / 5, 1e-9);
}

// An event never measured (huge variance) is implied: b = total - a.
TEST(Posterior, UnmeasuredEventImplied) {
  Posterior p = conditionOnInvariants({10, 4, 0}, {0.01, 0.04, 1e12}, sumRow({1, -1, -1}));
  EXPECT_NEAR(p.mean[2], 6, 1e-6);
  EXPECT_NEAR(p.cov[2][2], 0.05, 1e-3);  // var(total) + var(a)
}

// A redundant copy of an invariant changes nothing.
TEST(Posterior, RedundantRowsDropped) {
  LinearSystem s = sumRow({1, -1, -1});
  s.rows.push_back({2, -2, -2});
  s.tolerance.push_back(0);
  s.names.push_back("twice");
  Posterior a = conditionOnInvariants({10, 4, 5}, {1, 1, 1}, sumRow({1, -1, -1}));
  Posterior b = conditionOnInvariants({10, 4, 5}, {1, 1, 1}, s);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(a.mean[i], b.mean[i], 1e-9);
    EXPECT_NEAR(a.cov[i][i], b.cov[i][i], 1e-9);
  }
}

// A soft invariant (tolerance t) adds (t * largest term)^2 to S: with unit
// variances and t = 0.1, S = 3 + 1 = 4 and the shift is a quarter.
TEST(Posterior, SoftInvariant) {
  Posterior p = conditionOnInvariants({10, 4, 5}, {1, 1, 1}, sumRow({1, -1, -1}, 0.1));
  EXPECT_NEAR(p.mean[0], 10 - 0.25, 1e-12);
  EXPECT_NEAR(p.mean[1], 4 + 0.25, 1e-12);
}

// Two chained invariants (a = b + c, b = d + e) by hand with unit variances.
TEST(Posterior, ChainedInvariantsSatisfied) {
  LinearSystem s = sumRow({1, -1, -1, 0, 0});
  s.rows.push_back({0, 1, 0, -1, -1});
  s.tolerance.push_back(0);
  s.names.push_back("b");
  Posterior p = conditionOnInvariants({20, 9, 9, 5, 5}, {1, 1, 1, 1, 1}, s);
  EXPECT_NEAR(p.mean[0] - p.mean[1] - p.mean[2], 0, 1e-9);
  EXPECT_NEAR(p.mean[1] - p.mean[3] - p.mean[4], 0, 1e-9);
  // S = [[3,-1],[-1,3]], r = (2,-1) -> w = S^-1 r = (5/8, -1/8);
  // m' = m - A'w = (20-5/8, 9+5/8+1/8, 9+5/8, 5-1/8, 5-1/8).
  EXPECT_NEAR(p.mean[0], 20 - 5.0 / 8, 1e-12);
  EXPECT_NEAR(p.mean[1], 9 + 6.0 / 8, 1e-12);
  EXPECT_NEAR(p.mean[3], 5 - 1.0 / 8, 1e-12);
}
