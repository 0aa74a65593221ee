// Temporary: hook definitions so that instrumented programs link while the
// runtime is being written.
#include "numaperf/hook_abi.h"
#define NP_EXPORT extern "C" __attribute__((visibility("default")))
NP_EXPORT void __numaperf_load1(const void *) {}
NP_EXPORT void __numaperf_load2(const void *) {}
NP_EXPORT void __numaperf_load4(const void *) {}
NP_EXPORT void __numaperf_load8(const void *) {}
NP_EXPORT void __numaperf_load16(const void *) {}
NP_EXPORT void __numaperf_store1(const void *) {}
NP_EXPORT void __numaperf_store2(const void *) {}
NP_EXPORT void __numaperf_store4(const void *) {}
NP_EXPORT void __numaperf_store8(const void *) {}
NP_EXPORT void __numaperf_store16(const void *) {}
NP_EXPORT void __numaperf_loadN(const void *, uint64_t) {}
NP_EXPORT void __numaperf_storeN(const void *, uint64_t) {}
NP_EXPORT void __numaperf_register_module(uint32_t, const numaperf_global_desc *, uint64_t) {}
NP_EXPORT void __numaperf_unregister_module(const numaperf_global_desc *, uint64_t) {}
