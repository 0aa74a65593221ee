// Addresses of the interposed libc functions, resolved with dlsym(RTLD_NEXT).
// dlsym itself may allocate; those requests are served from a small static
// bootstrap arena (see bootstrap_arena.h) so resolution never recurses.
#pragma once

#include <atomic>
#include <cstddef>
#include <ctime>
#include <pthread.h>
#include <semaphore.h>

namespace numaperf {

// The first seven entries, the ones a program may call millions of times,
// share one cache line with the resolution state (ResolvedFunctions): a
// program that takes a lock or allocates per cache miss feels every further
// line an interceptor reads.
struct RealFunctions {
  void *(*malloc)(size_t) = nullptr;
  void (*free)(void *) = nullptr;
  int (*pthread_mutex_lock)(pthread_mutex_t *) = nullptr;
  int (*pthread_mutex_trylock)(pthread_mutex_t *) = nullptr;
  void *(*calloc)(size_t, size_t) = nullptr;
  void *(*realloc)(void *, size_t) = nullptr;
  int (*posix_memalign)(void **, size_t, size_t) = nullptr;
  void *(*aligned_alloc)(size_t, size_t) = nullptr;
  void *(*memalign)(size_t, size_t) = nullptr;
  void *(*valloc)(size_t) = nullptr;
  void *(*pvalloc)(size_t) = nullptr;
  size_t (*malloc_usable_size)(void *) = nullptr;  // null when libc has none
  int (*pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *) = nullptr;
  // Synchronisation (interception/sync_interceptors.cpp). The clock* variants
  // are null on a libc without them.
  int (*pthread_mutex_timedlock)(pthread_mutex_t *, const timespec *) = nullptr;
  int (*pthread_mutex_clocklock)(pthread_mutex_t *, clockid_t, const timespec *) = nullptr;
  int (*pthread_spin_lock)(pthread_spinlock_t *) = nullptr;
  int (*pthread_spin_trylock)(pthread_spinlock_t *) = nullptr;
  int (*pthread_rwlock_rdlock)(pthread_rwlock_t *) = nullptr;
  int (*pthread_rwlock_tryrdlock)(pthread_rwlock_t *) = nullptr;
  int (*pthread_rwlock_timedrdlock)(pthread_rwlock_t *, const timespec *) = nullptr;
  int (*pthread_rwlock_wrlock)(pthread_rwlock_t *) = nullptr;
  int (*pthread_rwlock_trywrlock)(pthread_rwlock_t *) = nullptr;
  int (*pthread_rwlock_timedwrlock)(pthread_rwlock_t *, const timespec *) = nullptr;
  int (*pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *) = nullptr;
  int (*pthread_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
                                const timespec *) = nullptr;
  int (*pthread_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
                                const timespec *) = nullptr;
  int (*pthread_barrier_wait)(pthread_barrier_t *) = nullptr;
  int (*sem_wait)(sem_t *) = nullptr;
  int (*sem_trywait)(sem_t *) = nullptr;
  int (*sem_timedwait)(sem_t *, const timespec *) = nullptr;
  int (*sem_clockwait)(sem_t *, clockid_t, const timespec *) = nullptr;
  int (*pthread_join)(pthread_t, void **) = nullptr;
  void (*pthread_exit)(void *) __attribute__((noreturn)) = nullptr;
  int (*pthread_detach)(pthread_t) = nullptr;
};

// Resolves every entry once; safe to call from any interceptor, any thread.
// Returns false while resolution is in progress on this thread (the caller
// must then use the bootstrap arena).
// Whether the real malloc is glibc's, whose live blocks start at least 32
// bytes apart (MINSIZE on 64-bit).
bool realMallocIsGlibc();

// The resolution state and the hottest entries in one cache line, inline
// below so that an interceptor with nothing to do compiles to a test and a
// tail jump (no frame of its own under the real call).
struct alignas(64) ResolvedFunctions {
  std::atomic<int> state{0};  // 0 unresolved, 1 resolving, 2 resolved
  RealFunctions functions;
};
extern ResolvedFunctions g_real_functions;

bool resolveRealFunctionsSlow();
inline bool realFunctionsResolved() {
  return g_real_functions.state.load(std::memory_order_acquire) == 2;
}
inline bool resolveRealFunctions() {
  return realFunctionsResolved() || resolveRealFunctionsSlow();
}
inline const RealFunctions &real() { return g_real_functions.functions; }

}  // namespace numaperf
