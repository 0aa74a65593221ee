#include "probe.h"

extern "C" REPORT_TEST_NOINLINE void dlopenProbe(uint64_t* pc, int* line) {
  *pc = reportTestReturnAddress(); *line = __LINE__;
}
