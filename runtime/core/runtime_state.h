// Life cycle of the runtime: lazy initialisation from whichever entry point
// runs first (a constructor, an interceptor or a hook), the on/off switch the
// hot path reads, the per-thread reentrancy guard, and the report at exit.
#pragma once

#include "common/env_config.h"
#include "core/thread_registry.h"

#include <atomic>

namespace numaperf {

enum RuntimeStatus : int {
  kUninitialized = 0,
  kInitializing = 1,
  kActive = 2,    // collecting
  kDisabled = 3,  // a problem made profiling impossible; the program runs on
  kFinished = 4,  // the report has been written
};

extern std::atomic<int> g_runtime_status;

// Initialises on first call; returns true when profiling is active.
bool ensureInitialized();
inline bool profilingActive() {
  return g_runtime_status.load(std::memory_order_relaxed) == kActive;
}
// Turns profiling off for good with a one-line reason.
void disableProfiling(const char *why);

// While a thread runs the runtime's own code, allocations it makes are not
// tracked (they come from the runtime, not the program).
class RuntimeScope {
 public:
  RuntimeScope() { ++depth_; }
  ~RuntimeScope() { --depth_; }
  static bool inside() { return depth_ > 0; }

 private:
  static __thread int depth_ __attribute__((tls_model("initial-exec")));
};

const RuntimeConfig &runtimeConfig();
uint64_t runtimeStartNanos();

// The calling thread's state, registering it if this is its first event.
ThreadState *currentThread();
// Registers a thread started through our pthread_create trampoline.
ThreadState *registerStartedThread(void *start_routine);

// Builds and writes the report once (later calls do nothing).
void finishAndReport();

}  // namespace numaperf
