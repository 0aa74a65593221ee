// OpenMP runtimes: barriers and locks called from program code.
//  - LLVM libomp (clang -fopenmp): __kmpc_barrier is what the compiler emits
//    for `#pragma omp barrier` and for the implicit barrier at the end of a
//    worksharing construct without `nowait`.
//  - GNU libgomp (gcc -fopenmp): GOMP_barrier / GOMP_barrier_cancel.
//  - Both: omp_set_lock / omp_set_nest_lock (try first, as for mutexes).
// Barriers inside the runtimes (the join at the end of a parallel region)
// are not visible here and are not counted. Worker threads are created with
// pthread_create inside the runtimes, so the thread trampoline registers
// them; the report names their type "OpenMP worker".
//
// The real functions are looked up on first use (the OpenMP runtime is a
// separate library, possibly loaded later), always called, whatever state
// the profiler is in.
#include "core/runtime_state.h"
#include "interception/real_functions.h"
#include "interception/sync_counting.h"

#include <atomic>
#include <dlfcn.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace numaperf;

namespace {

template <typename F>
F lazyReal(std::atomic<void *> &slot, const char *name) {
  void *p = slot.load(std::memory_order_acquire);
  if (!p) {
    resolveRealFunctions();  // malloc & co first: dlsym may allocate
    RuntimeScope scope;
    p = dlsym(RTLD_NEXT, name);
    slot.store(p, std::memory_order_release);
  }
  return reinterpret_cast<F>(p);
}

#define NP_REAL(type, name)                        \
  static std::atomic<void *> slot_##name{nullptr}; \
  auto real_##name = lazyReal<type>(slot_##name, #name)

void countBarrier() {
  if (ThreadState *t = countingThread()) ++t->barrier_waits;
}

}  // namespace

// ---- LLVM libomp -------------------------------------------------------------

NP_EXPORT void __kmpc_barrier(void *loc, int gtid) {
  NP_REAL(void (*)(void *, int), __kmpc_barrier);
  countBarrier();
  real___kmpc_barrier(loc, gtid);
}

// ---- GNU libgomp ---------------------------------------------------------------

NP_EXPORT void GOMP_barrier(void) {
  NP_REAL(void (*)(void), GOMP_barrier);
  countBarrier();
  real_GOMP_barrier();
}

NP_EXPORT bool GOMP_barrier_cancel(void) {
  NP_REAL(bool (*)(void), GOMP_barrier_cancel);
  countBarrier();
  return real_GOMP_barrier_cancel();
}

// ---- OpenMP locks (both runtimes) ---------------------------------------------------

NP_EXPORT void omp_set_lock(void *lock) {
  NP_REAL(void (*)(void *), omp_set_lock);
  if (ThreadState *t = countingThread()) {
    NP_REAL(int (*)(void *), omp_test_lock);
    if (real_omp_test_lock && real_omp_test_lock(lock)) return;
    ++t->lock_contentions;
  }
  real_omp_set_lock(lock);
}

NP_EXPORT void omp_set_nest_lock(void *lock) {
  NP_REAL(void (*)(void *), omp_set_nest_lock);
  if (ThreadState *t = countingThread()) {
    NP_REAL(int (*)(void *), omp_test_nest_lock);
    if (real_omp_test_nest_lock && real_omp_test_nest_lock(lock) > 0) return;
    ++t->lock_contentions;
  }
  real_omp_set_nest_lock(lock);
}
