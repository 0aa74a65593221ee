/* numaperf hook ABI: the contract between instrumented code (emitted by the
 * pass in pass/) and the runtime (runtime/, libnumaperf.so).
 *
 * This header is the single place where hook names, argument types and the
 * ABI version are declared. The pass includes it to spell the names it emits;
 * the runtime includes it to define them. Change anything here and bump
 * NUMAPERF_HOOK_ABI_VERSION: a module built for another version is refused at
 * start-up with a one-line message (see docs/hook-abi.md).
 */
#ifndef NUMAPERF_HOOK_ABI_H
#define NUMAPERF_HOOK_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NUMAPERF_HOOK_ABI_VERSION 5u

/* Names as strings, for the pass. */
#define NUMAPERF_HOOK_PREFIX "__numaperf_"
#define NUMAPERF_REGISTER_MODULE_NAME "__numaperf_register_module"
#define NUMAPERF_UNREGISTER_MODULE_NAME "__numaperf_unregister_module"
#define NUMAPERF_REGISTER_FUNCTIONS_NAME "__numaperf_register_functions"
#define NUMAPERF_UNREGISTER_FUNCTIONS_NAME "__numaperf_unregister_functions"
#define NUMAPERF_ACTIVE_FLAG_NAME "__numaperf_active"
#define NUMAPERF_FUNCTION_FIRST_ENTRY_NAME "__numaperf_function_first_entry"
#define NUMAPERF_FAST_PAGE_NAME "__numaperf_fast_page"

/* Access hooks, called right before the access they describe.
 * Fixed sizes 1, 2, 4, 8 and 16 bytes have their own entry points; any other
 * size (vectors, aggregates, memcpy/memset/memmove ranges) goes through the
 * N variants. The call site (return address of the hook) identifies the
 * instruction for the code-centric view. Atomic read-modify-write and
 * compare-exchange operations are reported as stores. */
void __numaperf_load1(const void *addr);
void __numaperf_load2(const void *addr);
void __numaperf_load4(const void *addr);
void __numaperf_load8(const void *addr);
void __numaperf_load16(const void *addr);
void __numaperf_store1(const void *addr);
void __numaperf_store2(const void *addr);
void __numaperf_store4(const void *addr);
void __numaperf_store8(const void *addr);
void __numaperf_store16(const void *addr);
void __numaperf_loadN(const void *addr, uint64_t size);
void __numaperf_storeN(const void *addr, uint64_t size);

/* Range hooks, called once before a loop (in its preheader) for an access
 * the loop makes on every iteration at a constant stride: `count` accesses
 * of `size` bytes at addr, addr + stride, addr + 2 * stride, ... The pass
 * emits them for counted loops only (see docs/hook-abi.md); the runtime
 * counts them exactly as `count` single accesses made in a row. */
void __numaperf_load_range(const void *addr, int64_t stride, uint64_t count, uint64_t size);
void __numaperf_store_range(const void *addr, int64_t stride, uint64_t count, uint64_t size);

/* The inline private-page test (ABI 5). Before a 1-, 2-, 4- or 8-byte
 * access the pass emits, instead of a bare hook call:
 *
 *   struct numaperf_fast_page *f = __numaperf_fast_page;
 *   uint64_t page = (uint64_t)addr >> 12;
 *   if (page == f->ways[0].page) ++f->ways[0].counts[is_store];
 *   else if (page == f->ways[1].page) ++f->ways[1].counts[is_store];
 *   else __numaperf_loadK(addr) / __numaperf_storeK(addr);
 *
 * The runtime points each thread's `__numaperf_fast_page` at a record of its
 * own and names in its ways the (at most two) pages the thread touched first
 * and is the only one to use (private pages: their accesses need counting
 * and nothing else); two, so that a loop reading one array and writing
 * another counts both inline. It takes a page back (NUMAPERF_NO_FAST_PAGE)
 * before it counts another thread's access there, and adds a way's counts
 * to its page when the way is given to another page. Before a thread is
 * registered the pointer leads to a record whose pages never match, so
 * every access calls its hook. */
struct numaperf_fast_way {
  uint64_t page;      /* page number (address >> 12), or NUMAPERF_NO_FAST_PAGE */
  uint64_t counts[2]; /* accesses counted inline: [0] loads, [1] stores */
};
#define NUMAPERF_FAST_PAGE_WAYS 2
struct numaperf_fast_page {
  struct numaperf_fast_way ways[NUMAPERF_FAST_PAGE_WAYS];
};
#define NUMAPERF_NO_FAST_PAGE (~(uint64_t)0)
#define NUMAPERF_FAST_PAGE_SHIFT 12
extern __thread struct numaperf_fast_page *__numaperf_fast_page
    __attribute__((tls_model("initial-exec")));

/* One record per global variable defined by an instrumented module.
 * Layout is part of the ABI. */
struct numaperf_global_desc {
  const void *addr;  /* start of the variable */
  uint64_t size;     /* size in bytes */
  const char *name;  /* symbol name as in the IR (mangled for C++) */
  const char *file;  /* source file of the definition, or "" */
  uint32_t line;     /* source line of the definition, or 0 */
  uint32_t flags;    /* reserved, 0 */
};

/* Emitted by the pass in a constructor of every instrumented module (also
 * when it defines no globals), so that the runtime can check the ABI version
 * before any hook runs. A version mismatch disables profiling with a clear
 * message; the program itself runs on. */
void __numaperf_register_module(uint32_t abi_version,
                                const struct numaperf_global_desc *globals,
                                uint64_t count);

/* Emitted in a destructor of every instrumented module (dlclose). */
void __numaperf_unregister_module(const struct numaperf_global_desc *globals,
                                  uint64_t count);

/* Profiling switch, read (relaxed) at the entry of every instrumented
 * function that has an uninstrumented twin: non-zero runs the instrumented
 * body, zero tail-calls the twin. Written only by the runtime. */
extern volatile uint8_t __numaperf_active;

/* One record per function the pass instrumented or filtered. */
#define NUMAPERF_FUNCTION_FILTERED 1u /* its own code is filtered out */
/* `entries` points to three words: entries, the accesses the hooks reported
 * (a hook call counts 1, a range hook its element count), and the index + 1
 * of the thread that entered the instrumented body first (0: not yet),
 * written by __numaperf_function_first_entry. */
#define NUMAPERF_FUNCTION_HOOK_COUNTS 2u
struct numaperf_function_desc {
  const char *name;   /* symbol name (mangled for C++) */
  const char *file;   /* source file of the definition, or "" */
  uint32_t line;      /* line of the definition, or 0 */
  uint32_t hooks;     /* hook calls in its instrumented body */
  uint32_t filtered;  /* accesses the filter left without a hook */
  uint32_t flags;     /* NUMAPERF_FUNCTION_* bits */
  uint64_t *entries;  /* entries of the instrumented body, or NULL */
};

/* Emitted after __numaperf_register_module in the module constructor (when
 * the module has such functions) and in its destructor. */
void __numaperf_register_functions(const struct numaperf_function_desc *fns,
                                   uint64_t count);
void __numaperf_unregister_functions(const struct numaperf_function_desc *fns,
                                     uint64_t count);

/* Called by the instrumented body when its entry counter was 0 (so about
 * once per function): records the calling thread in counters[2]. */
void __numaperf_function_first_entry(uint64_t *counters);

#ifdef __cplusplus
}
#endif

#endif /* NUMAPERF_HOOK_ABI_H */
