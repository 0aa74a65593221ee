/* The instrumentation floor: every function of the hook ABI
 * (include/numaperf/hook_abi.h), doing nothing. The benchmark harness
 * compiles workloads with the numaperf pass exactly as numaperf-clang does
 * and links this library instead of libnumaperf.so, so the time measured is
 * the cost of the inserted calls alone (call, spills, lost vectorisation),
 * a lower bound for any runtime behind the same hooks. Built as a shared
 * library so calls go through the PLT like calls into libnumaperf.so. */
#include "numaperf/hook_abi.h"

#define NOOP_HOOK(name) \
  void name(const void *addr) { (void)addr; }

NOOP_HOOK(__numaperf_load1)
NOOP_HOOK(__numaperf_load2)
NOOP_HOOK(__numaperf_load4)
NOOP_HOOK(__numaperf_load8)
NOOP_HOOK(__numaperf_load16)
NOOP_HOOK(__numaperf_store1)
NOOP_HOOK(__numaperf_store2)
NOOP_HOOK(__numaperf_store4)
NOOP_HOOK(__numaperf_store8)
NOOP_HOOK(__numaperf_store16)

void __numaperf_loadN(const void *addr, uint64_t size) {
  (void)addr;
  (void)size;
}

void __numaperf_storeN(const void *addr, uint64_t size) {
  (void)addr;
  (void)size;
}

void __numaperf_register_module(uint32_t abi_version, const struct numaperf_global_desc *globals,
                                uint64_t count) {
  (void)abi_version;
  (void)globals;
  (void)count;
}

void __numaperf_unregister_module(const struct numaperf_global_desc *globals, uint64_t count) {
  (void)globals;
  (void)count;
}

void __numaperf_load_range(const void *addr, int64_t stride, uint64_t count, uint64_t size) {
  (void)addr;
  (void)stride;
  (void)count;
  (void)size;
}

void __numaperf_store_range(const void *addr, int64_t stride, uint64_t count, uint64_t size) {
  (void)addr;
  (void)stride;
  (void)count;
  (void)size;
}

/* Profiling always on: the floor measures the instrumented bodies. */
volatile uint8_t __numaperf_active = 1;

void __numaperf_register_functions(const struct numaperf_function_desc *fns, uint64_t count) {
  (void)fns;
  (void)count;
}

void __numaperf_function_first_entry(uint64_t *counters) { (void)counters; }
void __numaperf_unregister_functions(const struct numaperf_function_desc *fns, uint64_t count) {
  (void)fns;
  (void)count;
}

/* The inline private-page test finds no page here, so every access calls
 * its (empty) hook: the floor keeps the cost of the test and of the call. */
static struct numaperf_fast_page no_fast_page = {NUMAPERF_NO_FAST_PAGE, {0, 0}};
__thread struct numaperf_fast_page *__numaperf_fast_page = &no_fast_page;
