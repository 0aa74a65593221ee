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

}  // namespace numaperf
