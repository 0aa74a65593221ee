#include <gtest/gtest.h>

#include <cmath>

#include "counters/estimator.h"

using namespace numaperf::counters;

namespace {

LinearSystem totalOfParts(size_t n) {  // event 0 = sum of events 1..n-1
  LinearSystem s;
  std::vector<double> row(n, -1.0);
  row[0] = 1;
  s.rows.push_back(row);
  s.tolerance.push_back(0);
  s.names.push_back("sum");
  return s;
}

Reading on(double c) { return {c, 1, 1}; }
Reading off() { return {0, 1, 0}; }

}  // namespace

// Counted all the time: the estimate is the count, the interval collapses.
TEST(Estimator, FullyCountedIsExact) {
  Estimator est({"a"}, LinearSystem{});
  auto e = est.estimate({{on(3), on(5), on(7)}});
  ASSERT_TRUE(e[0].available);
  EXPECT_DOUBLE_EQ(e[0].plain, 15);
  EXPECT_NEAR(e[0].mean, 15, 1e-9);
  EXPECT_NEAR(e[0].hi - e[0].lo, 0, 1e-5);
  EXPECT_DOUBLE_EQ(e[0].counted, 1);
}

// A part that is a fixed share of an always-counted total is recovered
// exactly through the total, where time scaling is far off (bursty slices).
TEST(Estimator, RatioToLinkedEventBeatsTimeScaling) {
  std::vector<double> total{100, 10, 300, 20, 200, 10, 400, 30};
  std::vector<std::vector<Reading>> r(3);
  double truthA = 0;
  for (size_t s = 0; s < total.size(); ++s) {
    r[0].push_back(on(total[s]));
    double a = 0.25 * total[s];
    truthA += a;
    r[1].push_back(s % 2 == 1 ? on(a) : off());   // counted in the quiet slices only
    r[2].push_back(s % 2 == 0 ? on(0.75 * total[s]) : off());
  }
  Estimator est({"total", "a", "b"}, totalOfParts(3));
  auto e = est.estimate(r);
  EXPECT_EQ(e[1].reference, 0);
  EXPECT_NEAR(e[1].mean, truthA, 1e-6 * truthA);
  EXPECT_GT(std::fabs(e[1].plain - truthA), 0.5 * truthA);  // time scaling: 70 * 2 vs 267.5
  EXPECT_NEAR(e[0].mean, e[1].mean + e[2].mean, 1e-6 * e[0].mean);
}

// With noise, the interval is a Student-t one from the slice residuals and
// contains the truth; time scaling is the fallback reference.
TEST(Estimator, TimeScalingWithInterval) {
  std::vector<std::vector<Reading>> r(1);
  double v[] = {10, 12, 9, 11, 10, 8, 12, 10};
  for (int s = 0; s < 8; ++s) r[0].push_back(s % 2 ? on(v[s]) : off());
  Estimator est({"x"}, LinearSystem{}, 0.95);
  auto e = est.estimate(r);
  EXPECT_EQ(e[0].reference, kReferenceTime);
  EXPECT_DOUBLE_EQ(e[0].plain, (12 + 11 + 8 + 10) * 2.0);
  EXPECT_NEAR(e[0].mean, e[0].plain, 1e-9);
  EXPECT_NEAR(e[0].dof, 3, 1e-9);
  EXPECT_DOUBLE_EQ(e[0].counted, 0.5);
  // By hand: z = (12,11,8,10), mean 10.25, relative residuals squared sum
  // = (1.75^2+0.75^2+2.25^2+0.25^2)/10.25^2 = 8.75/105.0625; S^2 = that / 3;
  // relative variance of the total = S^2 / 4 * (1 - 0.5).
  double rel = 8.75 / 105.0625 / 3 / 4 * 0.5;
  double sd = std::sqrt(rel) * e[0].mean;
  EXPECT_NEAR(e[0].hi - e[0].mean, 3.182446 * sd, 1e-3 * sd);  // t(3) 97.5 %
  EXPECT_LT(e[0].lo, 82);
  EXPECT_GT(e[0].hi, 82);
}

// Never counted, but implied by an invariant with counted events.
TEST(Estimator, UnscheduledEventInferred) {
  std::vector<std::vector<Reading>> r(3);
  for (int s = 0; s < 4; ++s) {
    r[0].push_back(on(10));
    r[1].push_back(on(4));
    r[2].push_back(off());
  }
  Estimator est({"total", "a", "b"}, totalOfParts(3));
  auto e = est.estimate(r);
  ASSERT_TRUE(e[2].available);
  EXPECT_EQ(e[2].reference, kReferenceNone);
  EXPECT_NEAR(e[2].mean, 24, 1e-3);
  EXPECT_DOUBLE_EQ(e[2].counted, 0);
}

TEST(Estimator, NeverCountedAndUnlinkedIsUnavailable) {
  Estimator est({"a", "b"}, LinearSystem{});
  auto e = est.estimate({{on(1), on(2)}, {off(), off()}});
  EXPECT_TRUE(e[0].available);
  EXPECT_FALSE(e[1].available);
}

TEST(Estimator, PlainScalingMatchesKernelFormula) {
  EXPECT_DOUBLE_EQ(plainScaling({{10, 4, 2}, {6, 4, 2}}), 16 * 8 / 4.0);
  EXPECT_DOUBLE_EQ(plainScaling({{0, 4, 0}}), 0);
}

// A task that did not run in an interval has no enabled time: exactly 0.
TEST(Estimator, NeverEnabledIsZero) {
  Estimator est({"a"}, LinearSystem{});
  auto e = est.estimate({{{0, 0, 0}, {0, 0, 0}}});
  ASSERT_TRUE(e[0].available);
  EXPECT_EQ(e[0].mean, 0);
  EXPECT_NEAR(e[0].hi, 0, 1e-5);
}
