#include "core/line_windows.h"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace numaperf {
namespace line_windows_detail {
uint32_t g_rate_mask = 0;
unsigned g_shift = 21;
uint64_t (*g_test_clock)() = nullptr;
__thread LineWindowTally t_tally __attribute__((tls_model("initial-exec")));

void refreshWeight(LineWindowTally &t) {
  if (t.modelled >= kTallyHalving) {
    t.modelled = (t.modelled + 1) / 2;
    t.skipped /= 2;
  }
  const uint64_t fixed = ((t.modelled + t.skipped) << 16) / (t.modelled ? t.modelled : 1);
  t.weight = uint32_t(std::min<uint64_t>(fixed, uint64_t(UINT32_MAX)));
  t.until_refresh = kWeightRefresh;
}
}  // namespace line_windows_detail

namespace {
using namespace line_windows_detail;

std::atomic<uint64_t> g_lines_sampled{0};

// About a millisecond: 2^21 ticks at 2.1 to 4.2 GHz (x86 time-stamp
// counters tick at the nominal frequency); the ARM timer's frequency is
// read. Long enough for the lines a profiled program fights over at a few
// dozen invalidations per millisecond to pass kLineWindowMinPerWindow.
constexpr double kWindowSeconds = 1e-3;

unsigned shiftForFrequency(uint64_t hz) {
  unsigned shift = 0;
  while (shift < 40 && double(uint64_t(1) << (shift + 1)) <= double(hz) * kWindowSeconds) ++shift;
  return shift;
}

bool haveGlobalClock() {
#if defined(__x86_64__) || defined(__i386__)
  // An invariant time-stamp counter (CPUID 0x80000007, EDX bit 8) ticks at
  // one rate in every power state, so the cores agree on the windows; older
  // processors' counters do not.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) return false;
  return (edx & (1u << 8)) != 0;
#elif defined(__aarch64__)
  uint64_t hz;
  asm volatile("mrs %0, cntfrq_el0" : "=r"(hz));
  g_shift = shiftForFrequency(hz);
  return hz != 0;
#else
  return false;
#endif
}

}  // namespace

void setLineWindows(const LineWindowConfig &config) {
  uint32_t rate = 1;
  while (rate * 2 <= config.rate && rate < (1u << 20)) rate *= 2;
  if (!haveGlobalClock()) rate = 1;
  g_rate_mask = rate - 1;
}

uint32_t lineWindowRate() { return g_rate_mask + 1; }

uint64_t linesSampledInWindows() { return g_lines_sampled.load(std::memory_order_relaxed); }

void setLineWindowClockForTesting(uint64_t (*clock)()) { g_test_clock = clock; }

unsigned lineWindowShift() { return g_shift; }

namespace line_windows_detail {
void judgeLineRateAtCheck(LineShare &l) {
  const uint64_t now = lineWindowClock();
  const uint64_t last = l.window_stamp.exchange(now ? now : 1, std::memory_order_relaxed);
  if (!last) return;  // the first check: nothing to compare with yet
  // kLineWindowCheck invalidations in at most this many ticks: at least
  // kLineWindowMinPerWindow per window.
  const uint64_t quick = (kLineWindowCheck / kLineWindowMinPerWindow) << g_shift;
  const uint16_t state = l.sampling.load(std::memory_order_relaxed);
  const bool fast = l.words != nullptr && now - last <= quick && now >= last;
  if (fast && !(state & kLineSampledNow)) {
    if (!(state & kLineWasSampled)) g_lines_sampled.fetch_add(1, std::memory_order_relaxed);
    l.sampling.store(kLineSampledNow | kLineWasSampled, std::memory_order_relaxed);
  } else if (!fast && (state & kLineSampledNow)) {
    l.sampling.store(kLineWasSampled, std::memory_order_relaxed);
  }
}
}  // namespace line_windows_detail

}  // namespace numaperf
