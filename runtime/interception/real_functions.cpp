#include "interception/real_functions.h"

#include "common/hot_path.h"
#include "common/log.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

namespace numaperf {
namespace {

static_assert(offsetof(ResolvedFunctions, functions) + 7 * sizeof(void *) <= 64,
              "the hot entries share the state's cache line");

__thread bool t_resolving = false;

template <typename F>
void resolve(F *slot, const char *name) {
  *slot = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

// pthread_cond_* exist in two ABIs in glibc; programs built today use the
// newer one (GLIBC_2.3.2 on x86-64), which dlsym does not always return.
template <typename F>
void resolveCond(F *slot, const char *name) {
#if defined(__x86_64__) && defined(__GLIBC__)
  *slot = reinterpret_cast<F>(dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2"));
  if (*slot) return;
#endif
  resolve(slot, name);
}

}  // namespace

NUMAPERF_HOT_DATA ResolvedFunctions g_real_functions;

bool resolveRealFunctionsSlow() {
  if (realFunctionsResolved()) return true;
  if (t_resolving) return false;  // dlsym is allocating: use the arena
  int expected = 0;
  if (g_real_functions.state.compare_exchange_strong(expected, 1)) {
    t_resolving = true;
    RealFunctions &f = g_real_functions.functions;
    resolve(&f.malloc, "malloc");
    resolve(&f.calloc, "calloc");
    resolve(&f.realloc, "realloc");
    resolve(&f.free, "free");
    resolve(&f.posix_memalign, "posix_memalign");
    resolve(&f.aligned_alloc, "aligned_alloc");
    resolve(&f.memalign, "memalign");
    resolve(&f.valloc, "valloc");
    resolve(&f.pvalloc, "pvalloc");
    resolve(&f.malloc_usable_size, "malloc_usable_size");
    resolve(&f.pthread_create, "pthread_create");
    resolve(&f.pthread_mutex_lock, "pthread_mutex_lock");
    resolve(&f.pthread_mutex_trylock, "pthread_mutex_trylock");
    resolve(&f.pthread_mutex_timedlock, "pthread_mutex_timedlock");
    resolve(&f.pthread_mutex_clocklock, "pthread_mutex_clocklock");
    resolve(&f.pthread_spin_lock, "pthread_spin_lock");
    resolve(&f.pthread_spin_trylock, "pthread_spin_trylock");
    resolve(&f.pthread_rwlock_rdlock, "pthread_rwlock_rdlock");
    resolve(&f.pthread_rwlock_tryrdlock, "pthread_rwlock_tryrdlock");
    resolve(&f.pthread_rwlock_timedrdlock, "pthread_rwlock_timedrdlock");
    resolve(&f.pthread_rwlock_wrlock, "pthread_rwlock_wrlock");
    resolve(&f.pthread_rwlock_trywrlock, "pthread_rwlock_trywrlock");
    resolve(&f.pthread_rwlock_timedwrlock, "pthread_rwlock_timedwrlock");
    resolveCond(&f.pthread_cond_wait, "pthread_cond_wait");
    resolveCond(&f.pthread_cond_timedwait, "pthread_cond_timedwait");
    resolve(&f.pthread_cond_clockwait, "pthread_cond_clockwait");
    resolve(&f.pthread_barrier_wait, "pthread_barrier_wait");
    resolve(&f.sem_wait, "sem_wait");
    resolve(&f.sem_trywait, "sem_trywait");
    resolve(&f.sem_timedwait, "sem_timedwait");
    resolve(&f.sem_clockwait, "sem_clockwait");
    resolve(&f.pthread_join, "pthread_join");
    resolve(&f.pthread_exit, "pthread_exit");
    resolve(&f.pthread_detach, "pthread_detach");
    t_resolving = false;
    if (!f.malloc || !f.free || !f.calloc || !f.realloc) {
      logMessage("cannot find the real malloc/free with dlsym; aborting");
      _exit(127);
    }
    g_real_functions.state.store(2, std::memory_order_release);
    return true;
  }
  // Another thread is resolving: wait for it (resolution is short).
  while (g_real_functions.state.load(std::memory_order_acquire) != 2) sched_yield();
  return true;
}

bool realMallocIsGlibc() {
#if defined(__GLIBC__) && UINTPTR_MAX > 0xffffffffu
  // glibc exports its malloc under this name too; a malloc interposed after
  // numaperf (jemalloc, tcmalloc...) is another function.
  void *libc_malloc = dlsym(RTLD_NEXT, "__libc_malloc");
  return libc_malloc && reinterpret_cast<void *>(g_real_functions.functions.malloc) == libc_malloc;
#else
  return false;
#endif
}

}  // namespace numaperf
