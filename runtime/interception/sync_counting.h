// Shared by the synchronisation interceptors (pthread, OpenMP).
#pragma once

#include "core/profiling_switch.h"
#include "core/runtime_state.h"
#include "core/thread_registry.h"
#include "interception/real_functions.h"

namespace numaperf {

// Synchronisation events are counted while the runtime is active and
// profiling is switched on (the report's profiled periods).
inline bool countingWanted() { return profilingActive() && profilingSwitchedOn(); }

// True when an interceptor has nothing to do but call the real function:
// resolved, and profiling switched off (before initialisation the switch
// reads on, so the first calls take the slow path that initialises).
inline bool syncUncounted() { return realFunctionsResolved() && !profilingSwitchedOn(); }

// The calling thread's state when its synchronisation events are to be
// counted (countingWanted, not inside the runtime), else nullptr.
ThreadState *countingThread();

}  // namespace numaperf
