// Captures the calling thread's stack by walking frame pointers (the compiler
// wrapper builds instrumented code with -fno-omit-frame-pointer). Every frame
// address is checked against the thread's stack bounds before it is read, so
// a frame from code built without frame pointers ends the walk instead of
// faulting. Frames inside libnumaperf itself are skipped.
#pragma once

#include <cstdint>

namespace numaperf {

// Records the address range of libnumaperf's own code (call once at init).
void initStackCapture();
// Writes up to max_depth return addresses, innermost first; returns the count.
uint32_t captureStack(uintptr_t *frames, uint32_t max_depth, uintptr_t stack_high);

// libnumaperf's own code, set by initStackCapture (hot data).
extern uintptr_t g_runtime_text_lo, g_runtime_text_hi;
inline bool insideRuntime(uintptr_t pc) { return pc >= g_runtime_text_lo && pc < g_runtime_text_hi; }

// The raw chain a walk went through: the frame addresses it visited, the
// return addresses it read there, and where it stopped. Two walks from the
// same frame that meet the same chain make the same decisions at every step,
// so they find the same stack: an allocation from the same place as the
// last one is recognised by comparing the chain, without the bounds checks
// (allocation_tracking.h, recordRepeatedAllocation).
struct FrameChain {
  static constexpr uint32_t kMax = 24;
  uint32_t len = 0;           // frames walked through; kMax + 1: too long, no chain
  bool ends_on_null = false;  // the walk stopped at a null return address
  uintptr_t fp[kMax + 1];     // fp[len]: the frame where it stopped
  uintptr_t pc[kMax];
};

// captureStack's walk from frame `fp` (frame addresses checked against
// [fp, stack_high) and alignment before they are read, frames inside
// libnumaperf skipped, up to max_depth return addresses): writes the
// return addresses to `frames` and the chain to `chain`, each when not
// nullptr. Returns the count of return addresses.
uint32_t walkFrames(const uintptr_t *fp, uintptr_t stack_high, uint32_t max_depth,
                    uintptr_t *frames, FrameChain *chain);

// Whether a walk from `fp` would meet exactly `chain` (and so find the same
// stack as the walk that noted it). Reads only frame addresses equal to the
// chain's, which passed the walk's checks when it was noted.
__attribute__((always_inline)) inline bool sameFrameChain(const FrameChain &chain,
                                                          const uintptr_t *fp) {
  const uint32_t n = chain.len;
  if (n > FrameChain::kMax) return false;
  for (uint32_t i = 0; i < n; ++i) {
    if (reinterpret_cast<uintptr_t>(fp) != chain.fp[i] || fp[1] != chain.pc[i]) return false;
    fp = reinterpret_cast<const uintptr_t *>(fp[0]);
  }
  return reinterpret_cast<uintptr_t>(fp) == chain.fp[n] && (!chain.ends_on_null || fp[1] == 0);
}

}  // namespace numaperf
