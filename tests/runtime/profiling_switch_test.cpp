// Unit tests of the profiling switch (runtime/core/profiling_switch.h): the
// flag instrumented functions read at entry, and the periods it reports.
#include "core/profiling_switch.h"

#include "numaperf/hook_abi.h"

#include <gtest/gtest.h>

#include <csignal>

// Defined by the runtime library (switch_entry_points.cpp), not by the
// static core these tests link.
extern "C" volatile uint8_t __numaperf_active = 1;

using namespace numaperf;

namespace {

class SwitchTest : public ::testing::Test {
 protected:
  void SetUp() override { resetProfilingSwitchForTest(); }
  void TearDown() override { resetProfilingSwitchForTest(); }
};

}  // namespace

TEST_F(SwitchTest, StartStopDriveTheFlag) {
  SwitchSettings s;
  initProfilingSwitch(s, 100);
  EXPECT_EQ(__numaperf_active, 1);
  setProfilingWanted(false);
  EXPECT_EQ(__numaperf_active, 0);
  toggleProfilingWanted();
  EXPECT_EQ(__numaperf_active, 1);
  forceProfilingOff();  // for good, whatever the user wants
  setProfilingWanted(true);
  EXPECT_EQ(__numaperf_active, 0);
}

TEST_F(SwitchTest, RegionsCountAndIgnoreOtherNames) {
  SwitchSettings s;
  s.regions = {"solve"};
  initProfilingSwitch(s, 0);
  EXPECT_EQ(__numaperf_active, 0);  // no listed region open yet
  regionBegin("io");
  EXPECT_EQ(__numaperf_active, 0);
  regionBegin("solve");
  regionBegin("solve");
  regionEnd("solve");
  EXPECT_EQ(__numaperf_active, 1);  // nested: still one open
  regionEnd("solve");
  EXPECT_EQ(__numaperf_active, 0);
  regionEnd("solve");  // unbalanced end: ignored, no wrap-around
  regionBegin("solve");
  EXPECT_EQ(__numaperf_active, 1);
  setProfilingWanted(false);  // the user's switch still applies
  EXPECT_EQ(__numaperf_active, 0);
}

TEST_F(SwitchTest, PeriodsFollowTheFlips) {
  SwitchSettings s;
  s.initially_on = false;
  initProfilingSwitch(s, 1000);
  SwitchSummary none = profilingSwitchSummary(1000, 5000);
  EXPECT_TRUE(none.periods.empty());
  EXPECT_FALSE(none.always_on);
  EXPECT_EQ(none.profiled_ns, 0u);
  setProfilingWanted(true);
  setProfilingWanted(false);
  setProfilingWanted(true);
  SwitchSummary sum = profilingSwitchSummary(0, UINT64_MAX / 2);
  ASSERT_EQ(sum.periods.size(), 2u);
  EXPECT_LE(sum.periods[0].end_ns, sum.periods[1].start_ns);
  EXPECT_FALSE(sum.always_on);
}

TEST_F(SwitchTest, AlwaysOnCoversTheRun) {
  initProfilingSwitch(SwitchSettings(), 1000);
  SwitchSummary sum = profilingSwitchSummary(1000, 9000);
  ASSERT_EQ(sum.periods.size(), 1u);
  EXPECT_TRUE(sum.always_on);
  EXPECT_EQ(sum.profiled_ns, 8000u);
}

TEST(SwitchSignal, NamesAndNumbers) {
  EXPECT_EQ(parseSignalName("SIGUSR2"), SIGUSR2);
  EXPECT_EQ(parseSignalName("usr1"), SIGUSR1);
  EXPECT_EQ(parseSignalName("12"), 12);
  EXPECT_EQ(parseSignalName("SIGNOPE"), 0);
  EXPECT_EQ(parseSignalName(""), 0);
  EXPECT_EQ(signalName(SIGUSR2), "SIGUSR2");
}
