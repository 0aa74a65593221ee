// Entry points that instrumented modules call from their constructors and
// destructors: the ABI check and the registration of their globals.
#include "numaperf/hook_abi.h"

#include "common/log.h"

#include <cstdio>
#include "core/object_registry.h"
#include "core/runtime_state.h"

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

NP_EXPORT void __numaperf_register_module(uint32_t abi_version,
                                          const numaperf_global_desc *globals,
                                          uint64_t count) {
  using namespace numaperf;
  if (abi_version != NUMAPERF_HOOK_ABI_VERSION) {
    char why[160];
    snprintf(why, sizeof why,
             "hook ABI mismatch: a module was built for ABI version %u but this "
             "runtime implements version %u; rebuild with the matching numaperf-clang",
             abi_version, NUMAPERF_HOOK_ABI_VERSION);
    disableProfiling(why);
    return;
  }
  if (!ensureInitialized()) return;
  RuntimeScope scope;
  for (uint64_t i = 0; i < count; ++i) {
    const numaperf_global_desc &g = globals[i];
    objectRegistry().addGlobal(reinterpret_cast<uintptr_t>(g.addr), g.size, g.name,
                               g.file, g.line);
  }
}

NP_EXPORT void __numaperf_unregister_module(const numaperf_global_desc *globals,
                                            uint64_t count) {
  using namespace numaperf;
  if (!profilingActive()) return;
  RuntimeScope scope;
  for (uint64_t i = 0; i < count; ++i)
    objectRegistry().removeGlobal(reinterpret_cast<uintptr_t>(globals[i].addr));
}
