// Helpers for symbolizer tests: functions that report a code address inside
// themselves together with the source line of that address.
#pragma once

#include <cstdint>

#define REPORT_TEST_NOINLINE __attribute__((noinline))

// Returns the return address of its call, i.e. a pc inside the caller.
extern "C" REPORT_TEST_NOINLINE inline uint64_t reportTestReturnAddress() {
  return reinterpret_cast<uint64_t>(__builtin_return_address(0));
}

// In the normally linked shared library.
REPORT_TEST_NOINLINE void shlibProbe(uint64_t* pc, int* line);

// In the dlopen'ed module (looked up with dlsym).
extern "C" typedef void (*DlopenProbeFn)(uint64_t* pc, int* line);
