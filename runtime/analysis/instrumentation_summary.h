// The report's "instrumentation" section: the functions the pass
// instrumented or filtered (with estimated hook calls) and the periods
// during which profiling was switched on.
#pragma once

#include "report/profile_model.h"

#include <cstdint>

namespace numaperf {

report::Instrumentation summarizeInstrumentation(uint64_t start_ns, uint64_t end_ns);

}  // namespace numaperf
