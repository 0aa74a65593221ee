// Exported entry points of run-time switching: the public API behind
// include/numaperf/numaperf.h (reached through weak references, so a
// program runs unchanged without the runtime) and the function tables that
// instrumented modules register (hook_abi.h).
#include "common/hot_path.h"
#include "numaperf/hook_abi.h"

#include "core/function_registry.h"
#include "core/profiling_switch.h"
#include "core/runtime_state.h"

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

// The profiling switch (core/profiling_switch.cpp writes it). On until the
// runtime decides otherwise, so instrumented constructors that run before
// the runtime initialises are profiled as without twins.
NP_EXPORT NUMAPERF_HOT_DATA volatile uint8_t __numaperf_active = 1;

NP_EXPORT void __numaperf_api_start(void) {
  if (numaperf::ensureInitialized()) numaperf::setProfilingWanted(true);
}

NP_EXPORT void __numaperf_api_stop(void) {
  if (numaperf::ensureInitialized()) numaperf::setProfilingWanted(false);
}

NP_EXPORT void __numaperf_api_region_begin(const char *name) {
  if (numaperf::ensureInitialized()) numaperf::regionBegin(name);
}

NP_EXPORT void __numaperf_api_region_end(const char *name) {
  if (numaperf::ensureInitialized()) numaperf::regionEnd(name);
}

NP_EXPORT void __numaperf_register_functions(const numaperf_function_desc *fns,
                                             uint64_t count) {
  // Registered even when profiling is off: the ABI check ran just before.
  numaperf::RuntimeScope scope;
  numaperf::functionRegistry().add(fns, count);
}

NP_EXPORT void __numaperf_function_first_entry(uint64_t *counters) {
  if (!counters || numaperf::RuntimeScope::inside()) return;
  numaperf::ThreadState *t = numaperf::currentThread();
  if (!t) return;
  // Two threads may both have seen 0 entries: the first to get here wins.
  uint64_t none = 0;
  __atomic_compare_exchange_n(&counters[2], &none, uint64_t(t->index) + 1, false,
                              __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

NP_EXPORT void __numaperf_unregister_functions(const numaperf_function_desc *fns,
                                               uint64_t count) {
  numaperf::RuntimeScope scope;
  numaperf::functionRegistry().remove(fns, count);
}
