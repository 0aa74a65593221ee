// Shared by the synchronisation interceptors (pthread, OpenMP).
#pragma once

#include "core/thread_registry.h"

namespace numaperf {

// The calling thread's state when its synchronisation events are to be
// counted (profiling active, not inside the runtime), else nullptr.
ThreadState *countingThread();

}  // namespace numaperf
