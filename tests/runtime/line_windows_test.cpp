// Hot-line time-window sampling (core/line_windows.h): when a line starts
// and stops being sampled, and the weights of modelled accesses.
#include "core/line_windows.h"

#include <gtest/gtest.h>

namespace numaperf {
namespace {

uint64_t g_now = 0;
uint64_t fakeClock() { return g_now; }

class LineWindowsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_now = 1;
    line_windows_detail::t_tally = LineWindowTally{};  // this thread starts afresh
    setLineWindowClockForTesting(&fakeClock);
    setLineWindows({8});
  }
  void TearDown() override {
    setLineWindows({1});
    setLineWindowClockForTesting(nullptr);
  }
  // Adds kLineWindowCheck invalidations to the line `ticks` after the last.
  void checkAfter(LineShare &l, uint64_t &count, uint64_t ticks) {
    g_now += ticks;
    judgeLineRate(l, count, kLineWindowCheck);
    count += kLineWindowCheck;
  }
  uint64_t quick() const { return (kLineWindowCheck / kLineWindowMinPerWindow) << lineWindowShift(); }
};

TEST_F(LineWindowsTest, RateRoundsDownToAPowerOfTwo) {
  setLineWindows({12});
  EXPECT_EQ(lineWindowRate(), 8u);
  setLineWindows({0});
  EXPECT_EQ(lineWindowRate(), 1u);
}

TEST_F(LineWindowsTest, FastLineWithWordsIsSampledAndStopsWhenItSlows) {
  LineShare l;
  WordDetail *fake_words = reinterpret_cast<WordDetail *>(&l);  // only tested for null
  l.words = fake_words;
  uint64_t count = 0;
  const uint64_t before = linesSampledInWindows();
  checkAfter(l, count, 1);  // first check: only stamps
  EXPECT_EQ(l.sampling.load(), 0);
  checkAfter(l, count, quick() / 2);
  EXPECT_EQ(l.sampling.load(), kLineSampledNow | kLineWasSampled);
  EXPECT_EQ(linesSampledInWindows(), before + 1);
  checkAfter(l, count, quick() * 4);
  EXPECT_EQ(l.sampling.load(), kLineWasSampled);
  checkAfter(l, count, quick() / 2);  // sampled again: not a new line
  EXPECT_EQ(l.sampling.load(), kLineSampledNow | kLineWasSampled);
  EXPECT_EQ(linesSampledInWindows(), before + 1);
  clearLineSampling(l);
  EXPECT_EQ(l.sampling.load(), 0);
  EXPECT_EQ(l.window_stamp.load(), 0u);
  l.words = nullptr;
}

TEST_F(LineWindowsTest, NoSamplingWithoutWordsOrBetweenChecksOrWhenOff) {
  LineShare l;
  uint64_t count = 0;
  checkAfter(l, count, 1);
  checkAfter(l, count, 1);
  EXPECT_EQ(l.sampling.load(), 0);  // no word detail: verdict not settled

  l.words = reinterpret_cast<WordDetail *>(&l);
  judgeLineRate(l, 1, 10);  // does not cross a multiple of kLineWindowCheck
  EXPECT_EQ(l.sampling.load(), 0);

  setLineWindows({1});
  checkAfter(l, count, 1);
  checkAfter(l, count, 1);
  EXPECT_EQ(l.sampling.load(), 0);
  l.words = nullptr;
}

TEST_F(LineWindowsTest, WindowsAreOneInRate) {
  uint32_t open = 0;
  const uint64_t window = uint64_t(1) << lineWindowShift();
  for (uint64_t w = 0; w < 64; ++w) {
    g_now = w * window + window / 2;
    for (uint32_t i = 0; i < kLineWindowClockEvery; ++i) open += lineWindowOpen();
  }
  EXPECT_EQ(open, 64 / 8 * kLineWindowClockEvery);
}

TEST_F(LineWindowsTest, TheClockIsReadOnceInSoManyAccesses) {
  const uint64_t window = uint64_t(1) << lineWindowShift();
  g_now = window + 1;  // a closed window
  for (uint32_t i = 0; i < kLineWindowClockEvery; ++i) EXPECT_FALSE(lineWindowOpen());
  // The window opens; the thread finds out at its next reading.
  g_now = 8 * window + 1;
  EXPECT_TRUE(lineWindowOpen());
  g_now = 9 * window + 1;  // closed again, within the same reading
  for (uint32_t i = 1; i < kLineWindowClockEvery; ++i) EXPECT_TRUE(lineWindowOpen());
  EXPECT_FALSE(lineWindowOpen());
}

TEST_F(LineWindowsTest, ALinesFirstInvalidatingWriteInAWindowCountsOneCopy) {
  const uint64_t window = uint64_t(1) << lineWindowShift();
  LineShare l;
  auto readClockAt = [&](uint64_t w) {
    g_now = w * window + 1;
    line_windows_detail::t_tally.until_clock = 0;  // read it at the next access
    return lineWindowOpen();
  };
  ASSERT_TRUE(readClockAt(8));
  EXPECT_EQ(windowedCopies(l, 3), 1u);  // the holders are the last window's
  EXPECT_EQ(windowedCopies(l, 3), 3u);
  EXPECT_EQ(windowedCopies(l, 1), 1u);
  LineShare other;
  EXPECT_EQ(windowedCopies(other, 2), 1u);  // per line
  ASSERT_TRUE(readClockAt(16));
  EXPECT_EQ(windowedCopies(l, 2), 1u);
  EXPECT_EQ(windowedCopies(l, 2), 2u);
  // A window whose number is 0 modulo 2^16 is no exception: a fresh line's
  // first write there counts one copy too.
  ASSERT_TRUE(readClockAt(uint64_t(1) << 16));
  LineShare fresh;
  EXPECT_EQ(windowedCopies(fresh, 4), 1u);
  EXPECT_EQ(windowedCopies(fresh, 4), 4u);
}

TEST_F(LineWindowsTest, WeightsAddUpToAccessesOverModelled) {
  // 3 skipped for each modelled: the weights of the modelled sum to about
  // all accesses, after the first refresh.
  uint64_t weights = 0, accesses = 0;
  for (int i = 0; i < 4096; ++i) {
    noteLineSkipped(3);
    weights += lineWindowWeight(1);
    accesses += 4;
  }
  EXPECT_GE(weights, accesses * 95 / 100);
  EXPECT_LE(weights, accesses * 105 / 100);
}

TEST_F(LineWindowsTest, AccessesSkippedBeforeTheFirstModelledAreNotWeighted) {
  // A line becomes sampled in a closed window: 10000 accesses skipped, then
  // a window of 640 modelled with 3 skipped for each after it. The weights
  // stand for about the accesses from the first modelled one on, not 64
  // modelled accesses each standing for the 10000.
  noteLineSkipped(10000);
  uint64_t weights = 0, accesses = 0;
  for (int i = 0; i < 640; ++i) {
    weights += lineWindowWeight(1);
    noteLineSkipped(3);
    accesses += 4;
  }
  EXPECT_LE(weights, accesses);
  EXPECT_GE(weights, accesses / 2);
}

}  // namespace
}  // namespace numaperf
