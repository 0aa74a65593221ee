#include "common/env_config.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace numaperf;

TEST(EnvConfig, ParsersRejectPartialAndOutOfRangeValues) {
  double d = -1;
  EXPECT_TRUE(parseDouble("12.5", 0, 100, &d));
  EXPECT_DOUBLE_EQ(d, 12.5);
  EXPECT_FALSE(parseDouble("12abc", 0, 100, &d));
  EXPECT_FALSE(parseDouble("", 0, 100, &d));
  EXPECT_FALSE(parseDouble("nan", 0, 100, &d));
  EXPECT_FALSE(parseDouble("-1", 0, 100, &d));
  EXPECT_DOUBLE_EQ(d, 12.5);  // untouched on failure
  uint64_t u = 0;
  EXPECT_TRUE(parseUnsigned("16", 1, 64, &u));
  EXPECT_EQ(u, 16u);
  EXPECT_FALSE(parseUnsigned("-3", 0, 64, &u));
  EXPECT_FALSE(parseUnsigned("65", 1, 64, &u));
  EXPECT_FALSE(parseUnsigned("99999999999999999999999", 0, ~0ull, &u));
  bool b = false;
  EXPECT_TRUE(parseBool("YES", &b));
  EXPECT_TRUE(b);
  EXPECT_FALSE(parseBool("banana", &b));
}

TEST(EnvConfig, BadValuesKeepDefaults) {
  setenv("NUMAPERF_REMOTE_THRESHOLD", "lots", 1);
  setenv("NUMAPERF_STACK_DEPTH", "8", 1);
  testing::internal::CaptureStderr();
  RuntimeConfig c = loadRuntimeConfig();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_DOUBLE_EQ(c.remote_threshold, RuntimeConfig().remote_threshold);
  EXPECT_EQ(c.stack_depth, 8u);
  EXPECT_NE(err.find("numaperf: NUMAPERF_REMOTE_THRESHOLD='lots'"), std::string::npos);
  unsetenv("NUMAPERF_REMOTE_THRESHOLD");
  unsetenv("NUMAPERF_STACK_DEPTH");
}

TEST(EnvConfig, ScoreTimeIsNativeOrWall) {
  EXPECT_TRUE(RuntimeConfig().score_native_time);
  setenv("NUMAPERF_SCORE_TIME", "wall", 1);
  EXPECT_FALSE(loadRuntimeConfig().score_native_time);
  setenv("NUMAPERF_SCORE_TIME", "cpu", 1);
  testing::internal::CaptureStderr();
  RuntimeConfig c = loadRuntimeConfig();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(c.score_native_time);
  EXPECT_NE(err.find("NUMAPERF_SCORE_TIME='cpu' is not one of native, wall; using native"),
            std::string::npos)
      << err;
  unsetenv("NUMAPERF_SCORE_TIME");
}
