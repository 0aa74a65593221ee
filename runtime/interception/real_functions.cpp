#include "interception/real_functions.h"

#include "common/log.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

namespace numaperf {
namespace {

// The state read before every call and the hottest entries in one line.
struct alignas(64) Resolved {
  std::atomic<int> state{0};  // 0 unresolved, 1 resolving, 2 resolved
  RealFunctions functions;
};
static_assert(offsetof(Resolved, functions) + 7 * sizeof(void *) <= 64,
              "the hot entries share the state's cache line");

Resolved g_resolved;
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

bool resolveRealFunctions() {
  if (g_resolved.state.load(std::memory_order_acquire) == 2) return true;
  if (t_resolving) return false;  // dlsym is allocating: use the arena
  int expected = 0;
  if (g_resolved.state.compare_exchange_strong(expected, 1)) {
    t_resolving = true;
    resolve(&g_resolved.functions.malloc, "malloc");
    resolve(&g_resolved.functions.calloc, "calloc");
    resolve(&g_resolved.functions.realloc, "realloc");
    resolve(&g_resolved.functions.free, "free");
    resolve(&g_resolved.functions.posix_memalign, "posix_memalign");
    resolve(&g_resolved.functions.aligned_alloc, "aligned_alloc");
    resolve(&g_resolved.functions.memalign, "memalign");
    resolve(&g_resolved.functions.valloc, "valloc");
    resolve(&g_resolved.functions.pvalloc, "pvalloc");
    resolve(&g_resolved.functions.pthread_create, "pthread_create");
    resolve(&g_resolved.functions.pthread_mutex_lock, "pthread_mutex_lock");
    resolve(&g_resolved.functions.pthread_mutex_trylock, "pthread_mutex_trylock");
    resolve(&g_resolved.functions.pthread_mutex_timedlock, "pthread_mutex_timedlock");
    resolve(&g_resolved.functions.pthread_mutex_clocklock, "pthread_mutex_clocklock");
    resolve(&g_resolved.functions.pthread_spin_lock, "pthread_spin_lock");
    resolve(&g_resolved.functions.pthread_spin_trylock, "pthread_spin_trylock");
    resolve(&g_resolved.functions.pthread_rwlock_rdlock, "pthread_rwlock_rdlock");
    resolve(&g_resolved.functions.pthread_rwlock_tryrdlock, "pthread_rwlock_tryrdlock");
    resolve(&g_resolved.functions.pthread_rwlock_timedrdlock, "pthread_rwlock_timedrdlock");
    resolve(&g_resolved.functions.pthread_rwlock_wrlock, "pthread_rwlock_wrlock");
    resolve(&g_resolved.functions.pthread_rwlock_trywrlock, "pthread_rwlock_trywrlock");
    resolve(&g_resolved.functions.pthread_rwlock_timedwrlock, "pthread_rwlock_timedwrlock");
    resolveCond(&g_resolved.functions.pthread_cond_wait, "pthread_cond_wait");
    resolveCond(&g_resolved.functions.pthread_cond_timedwait, "pthread_cond_timedwait");
    resolve(&g_resolved.functions.pthread_cond_clockwait, "pthread_cond_clockwait");
    resolve(&g_resolved.functions.pthread_barrier_wait, "pthread_barrier_wait");
    resolve(&g_resolved.functions.sem_wait, "sem_wait");
    resolve(&g_resolved.functions.sem_trywait, "sem_trywait");
    resolve(&g_resolved.functions.sem_timedwait, "sem_timedwait");
    resolve(&g_resolved.functions.sem_clockwait, "sem_clockwait");
    resolve(&g_resolved.functions.pthread_join, "pthread_join");
    resolve(&g_resolved.functions.pthread_exit, "pthread_exit");
    resolve(&g_resolved.functions.pthread_detach, "pthread_detach");
    t_resolving = false;
    if (!g_resolved.functions.malloc || !g_resolved.functions.free || !g_resolved.functions.calloc || !g_resolved.functions.realloc) {
      logMessage("cannot find the real malloc/free with dlsym; aborting");
      _exit(127);
    }
    g_resolved.state.store(2, std::memory_order_release);
    return true;
  }
  // Another thread is resolving: wait for it (resolution is short).
  while (g_resolved.state.load(std::memory_order_acquire) != 2) sched_yield();
  return true;
}

const RealFunctions &real() { return g_resolved.functions; }

bool realMallocIsGlibc() {
#if defined(__GLIBC__) && UINTPTR_MAX > 0xffffffffu
  // glibc exports its malloc under this name too; a malloc interposed after
  // numaperf (jemalloc, tcmalloc...) is another function.
  void *libc_malloc = dlsym(RTLD_NEXT, "__libc_malloc");
  return libc_malloc && reinterpret_cast<void *>(g_resolved.functions.malloc) == libc_malloc;
#else
  return false;
#endif
}

}  // namespace numaperf
