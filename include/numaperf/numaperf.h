/* numaperf.h - control profiling from the program (C and C++).
 *
 *   #include <numaperf/numaperf.h>
 *   numaperf_stop();                 // profiling off: plain code runs
 *   numaperf_region_begin("solve");  // on inside regions named in
 *   ...                              //   NUMAPERF_ACTIVE_REGIONS
 *   numaperf_region_end("solve");
 *   numaperf_start();
 *
 * numaperf-clang puts this header on the include path. The calls are no-ops
 * when the program runs without the numaperf runtime (built with plain
 * clang, or with -DNUMAPERF_DISABLE_API): they only call the runtime through
 * weak references that are null when it is absent. See docs/switching.md.
 */
#ifndef NUMAPERF_NUMAPERF_H
#define NUMAPERF_NUMAPERF_H

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(NUMAPERF_DISABLE_API) && (defined(__GNUC__) || defined(__clang__))
/* Defined by libnumaperf.so. */
void __numaperf_api_start(void) __attribute__((weak));
void __numaperf_api_stop(void) __attribute__((weak));
void __numaperf_api_region_begin(const char *name) __attribute__((weak));
void __numaperf_api_region_end(const char *name) __attribute__((weak));

/* Turns profiling on (the default at start-up unless NUMAPERF_ACTIVE=0). */
static inline void numaperf_start(void) {
  if (__numaperf_api_start) __numaperf_api_start();
}
/* Turns profiling off: instrumented functions run their uninstrumented
 * twins; allocations and synchronisation are still tracked. */
static inline void numaperf_stop(void) {
  if (__numaperf_api_stop) __numaperf_api_stop();
}
/* Marks a named region. When NUMAPERF_ACTIVE_REGIONS is set, profiling is
 * on only while a region it names is open (process-wide, nesting counts). */
static inline void numaperf_region_begin(const char *name) {
  if (__numaperf_api_region_begin) __numaperf_api_region_begin(name);
}
static inline void numaperf_region_end(const char *name) {
  if (__numaperf_api_region_end) __numaperf_api_region_end(name);
}
#else
static inline void numaperf_start(void) {}
static inline void numaperf_stop(void) {}
static inline void numaperf_region_begin(const char *name) { (void)name; }
static inline void numaperf_region_end(const char *name) { (void)name; }
#endif

#ifdef __cplusplus
} /* extern "C" */

namespace numaperf {
/* numaperf::Region r("solve"); ... region ends with the scope. */
class Region {
 public:
  explicit Region(const char *name) : name_(name) { numaperf_region_begin(name_); }
  ~Region() { numaperf_region_end(name_); }
  Region(const Region &) = delete;
  Region &operator=(const Region &) = delete;

 private:
  const char *name_;
};
}  // namespace numaperf
#endif

#endif /* NUMAPERF_NUMAPERF_H */
