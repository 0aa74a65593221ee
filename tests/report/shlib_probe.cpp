#include "probe.h"

REPORT_TEST_NOINLINE void shlibProbe(uint64_t* pc, int* line) {
  *pc = reportTestReturnAddress(); *line = __LINE__;
}
