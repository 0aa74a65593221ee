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

// The raw chain a walk went through: the frame addresses it visited, the
// two words it read at each (the caller's frame address and the return
// address), and where it stopped. Two walks from the same frame that meet
// the same chain make the same decisions at every step, so they find the
// same stack: an allocation from the same place as the last one is
// recognised by comparing the chain, without the bounds checks
// (allocation_tracking.h, recordRepeatedAllocation).
struct FrameChain {
  static constexpr uint32_t kMax = 24;
  // A frame's first two words: where the walk went next, and the return
  // address.
  struct alignas(16) Link {
    uintptr_t next_fp;
    uintptr_t pc;
  };
  uint32_t len = 0;           // frames walked through; kMax + 1: too long, no chain
  bool ends_on_null = false;  // the walk stopped at a null return address
  uintptr_t fp[kMax + 1];     // fp[len]: the frame where it stopped
  Link link[kMax];            // what frame fp[i] held: link[i].next_fp == fp[i + 1]
};

// captureStack's walk from frame `fp` (frame addresses checked against
// [fp, stack_high) and alignment before they are read, frames inside
// libnumaperf skipped, up to max_depth return addresses): writes the
// return addresses to `frames` and the chain to `chain`, each when not
// nullptr. Returns the count of return addresses. [stack_low, stack_high)
// is the thread's own stack: a walk from below it (on a stack of the
// program's own, a coroutine's) notes no chain (len kMax + 1), because
// sameFrameChain reads a chain's frames without checking them again, which
// is safe only where everything up to stack_high stays mapped.
uint32_t walkFrames(const uintptr_t *fp, uintptr_t stack_low, uintptr_t stack_high,
                    uint32_t max_depth, uintptr_t *frames, FrameChain *chain);

// Whether a walk from `fp` would meet exactly `chain` (and so find the same
// stack as the walk that noted it). Starting from the same frame, every
// frame address of the chain lies between it and the top of the thread's
// own stack (walkFrames notes no chain elsewhere), where the walk found
// them: readable, whatever they hold now. So all
// frames are read and compared at once, without a branch or a dependent
// load per frame: in a loop whose cache misses overlap, every instruction
// on malloc's path counts (docs/benchmarks.md, "Session 28").
__attribute__((always_inline)) inline bool sameFrameChain(const FrameChain &chain,
                                                          const uintptr_t *fp) {
  typedef uintptr_t Pair __attribute__((vector_size(2 * sizeof(uintptr_t))));
  const uint32_t n = chain.len;
  if (n > FrameChain::kMax || reinterpret_cast<uintptr_t>(fp) != chain.fp[0]) return false;
  Pair diff = {0, 0};
#pragma GCC unroll 4
  for (uint32_t i = 0; i < n; ++i) {
    Pair now;  // frames are 8-byte aligned only
    __builtin_memcpy(&now, reinterpret_cast<const void *>(chain.fp[i]), sizeof now);
    diff |= now ^ *reinterpret_cast<const Pair *>(&chain.link[i]);
  }
  if (diff[0] | diff[1]) return false;
  return !chain.ends_on_null || reinterpret_cast<const uintptr_t *>(chain.fp[n])[1] == 0;
}

}  // namespace numaperf
