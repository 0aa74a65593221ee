#include <gtest/gtest.h>

#include <cmath>

#include "counters/student_t.h"

using namespace numaperf::counters;

TEST(StudentT, TableValues) {
  // Two-sided 95 % and one-sided 95 % points from standard tables.
  EXPECT_NEAR(studentQuantile(0.975, 1), 12.7062, 1e-4);
  EXPECT_NEAR(studentQuantile(0.975, 2), 4.3027, 1e-4);
  EXPECT_NEAR(studentQuantile(0.975, 10), 2.2281, 1e-4);
  EXPECT_NEAR(studentQuantile(0.95, 30), 1.6973, 1e-4);
  EXPECT_NEAR(studentHalfWidth(0.90, 5), 2.0150, 1e-4);
}

TEST(StudentT, NormalLimit) {
  EXPECT_NEAR(normalQuantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(normalQuantile(0.5), 0.0, 1e-12);
  EXPECT_NEAR(normalQuantile(0.001), -3.090232, 1e-6);
  EXPECT_NEAR(studentQuantile(0.975, INFINITY), 1.959964, 1e-6);
  EXPECT_NEAR(studentQuantile(0.975, 1e6), 1.959964, 1e-4);
}

TEST(StudentT, CdfInvertsQuantile) {
  for (double nu : {1.0, 2.5, 7.0, 40.0})
    for (double p : {0.01, 0.2, 0.5, 0.8, 0.995}) EXPECT_NEAR(studentCdf(studentQuantile(p, nu), nu), p, 1e-9);
}
