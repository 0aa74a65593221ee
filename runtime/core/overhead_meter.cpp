#include "core/overhead_meter.h"

#include "core/thread_registry.h"

#include <algorithm>
#include <atomic>

namespace numaperf {
namespace {

std::atomic<uint64_t> g_start_ticks{0};
std::atomic<uint64_t> g_start_ns{0};
// Meters of threads that have exited.
std::atomic<uint64_t> g_retired_hook_ticks{0};
std::atomic<uint64_t> g_retired_gap_ticks{0};
std::atomic<uint64_t> g_retired_hook_samples{0};
std::atomic<uint64_t> g_retired_gap_samples{0};
std::atomic<uint64_t> g_retired_runtime_ticks{0};

}  // namespace

void startOverheadClock() {
  g_start_ticks.store(readCycleCounter(), std::memory_order_relaxed);
  g_start_ns.store(monotonicNanos(), std::memory_order_relaxed);
}

void retireOverheadMeter(OverheadMeter &m) {
  g_retired_hook_ticks.fetch_add(m.hook_ticks, std::memory_order_relaxed);
  g_retired_gap_ticks.fetch_add(m.gap_ticks, std::memory_order_relaxed);
  g_retired_hook_samples.fetch_add(m.hook_samples, std::memory_order_relaxed);
  g_retired_gap_samples.fetch_add(m.gap_samples, std::memory_order_relaxed);
  g_retired_runtime_ticks.fetch_add(m.runtime_ticks, std::memory_order_relaxed);
  m.hook_ticks = m.gap_ticks = m.hook_samples = m.gap_samples = m.runtime_ticks = 0;
}

HookTimeEstimate estimateHookTime() {
  HookTimeEstimate e;
  uint64_t hook_ticks = g_retired_hook_ticks.load(std::memory_order_relaxed);
  uint64_t gap_ticks = g_retired_gap_ticks.load(std::memory_order_relaxed);
  uint64_t hook_samples = g_retired_hook_samples.load(std::memory_order_relaxed);
  uint64_t gap_samples = g_retired_gap_samples.load(std::memory_order_relaxed);
  uint64_t runtime_ticks = g_retired_runtime_ticks.load(std::memory_order_relaxed);
  threadRegistry().forEach([&](const ThreadState &t) {
    hook_ticks += t.meter.hook_ticks;
    gap_ticks += t.meter.gap_ticks;
    runtime_ticks += t.meter.runtime_ticks;
    hook_samples += t.meter.hook_samples;
    gap_samples += t.meter.gap_samples;
  });
  e.samples = hook_samples + gap_samples;
  uint64_t now_ticks = readCycleCounter(), now_ns = monotonicNanos();
  uint64_t t0 = g_start_ticks.load(std::memory_order_relaxed);
  uint64_t n0 = g_start_ns.load(std::memory_order_relaxed);
  // Too few samples say nothing: scores then stay per wall ms.
  if (now_ticks <= t0 || now_ns <= n0 || hook_samples < 16 || gap_samples < 16) return e;
  double ticks_per_ms = double(now_ticks - t0) / (double(now_ns - n0) / 1e6);
  // Dropped samples (preempted, waiting) leave their kind with fewer
  // samples: scale each kind to the calls that all samples stand for.
  uint64_t samples = std::max(hook_samples, gap_samples);
  e.hook_ms = double(hook_ticks) / ticks_per_ms * double(samples) / double(hook_samples);
  e.own_ms = double(gap_ticks) / ticks_per_ms * double(samples) / double(gap_samples);
  e.runtime_ms = double(runtime_ticks) / ticks_per_ms;
  e.measured = true;
  return e;
}

double nativeEquivalentMs(double basis_ms, const HookTimeEstimate &e) {
  if (!e.measured || basis_ms <= 0) return basis_ms;
  double native = basis_ms * (1 - e.hookShare());
  return native > basis_ms / 1000 ? native : basis_ms / 1000;
}

}  // namespace numaperf
