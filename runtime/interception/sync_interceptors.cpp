// Interposed pthread / semaphore synchronisation: each counts, for the
// calling thread, the events after which the kernel may move the thread to
// another CPU (NumaPerf Section 3.2.4): lock contentions, condition waits,
// barrier waits, plus semaphore waits that block. Contention is detected
// portably by trying first (trylock / tryrdlock / sem_trywait); glibc's
// private fields are never read.
//
// The real function is always called. Nothing is counted before the runtime
// is initialised, while the runtime runs its own code (RuntimeScope), after
// the report was written, or while profiling is switched off: the counts
// describe the profiled periods, like the accesses. Counters are plain
// per-thread fields of ThreadState, written only by their thread.
//
// Switched off, a lock interceptor is a test and a tail jump to libc, with
// no frame of its own under the real call: on an AMD EPYC VM even an empty
// frame of ours under every lock slowed a hash table taking a lock per
// cache miss by 20% (docs/benchmarks.md, "Session 9").
#include "common/hot_path.h"
#include "core/runtime_state.h"
#include "interception/real_functions.h"
#include "interception/sync_counting.h"
#include "interception/thread_counters.h"

#include <cerrno>
#include <pthread.h>
#include <semaphore.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default"))) NUMAPERF_HOT_PATH

using namespace numaperf;

namespace {

// Tries `attempt` first; if the lock is busy counts a contention, then
// blocks in `block`. Other results of the attempt (success, EOWNERDEAD,
// EINVAL...) are the caller's answer as they would be from the lock call.
// The calling thread's state is looked up only on contention: a lock taken
// free reads the runtime's status and the real functions, nothing else (a
// program taking a lock per cache miss slows with every line read here).
template <typename Try, typename Block>
int lockCounting(Try attempt, Block block) {
  if (!countingWanted()) return block();
  int rc = attempt();
  if (rc != EBUSY) return rc;
  if (ThreadState *t = countingThread()) ++t->lock_contentions;
  return block();
}

// Same for trylock-style calls the program makes itself: a failure does not
// block, so it is not a contention; it is counted on its own.
int noteTry(int rc) {
  if (rc == EBUSY)
    if (ThreadState *t = countingThread()) ++t->trylock_failures;
  return rc;
}

// Semaphores return -1 and set errno; try first, count a wait when it would
// block. errno is kept as the program would see it from a single call.
template <typename Block>
int semCounting(sem_t *sem, Block block) {
  ThreadState *t = countingThread();
  if (!t) return block();
  int saved = errno;
  if (real().sem_trywait(sem) == 0) {
    errno = saved;
    return 0;
  }
  if (errno != EAGAIN) return block();  // EINVAL etc.: let the real call say so
  errno = saved;
  ++t->sem_waits;
  return block();
}

}  // namespace

namespace numaperf {

ThreadState *countingThread() {
  if (!countingWanted() || RuntimeScope::inside()) return nullptr;
  return currentThread();
}

}  // namespace numaperf

// ---- mutexes ---------------------------------------------------------------

namespace {

__attribute__((noinline)) int countedMutexLock(pthread_mutex_t *m) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_mutex_trylock(m); },
                      [&] { return real().pthread_mutex_lock(m); });
}

__attribute__((noinline)) int countedMutexTrylock(pthread_mutex_t *m) {
  resolveRealFunctions();
  return noteTry(real().pthread_mutex_trylock(m));
}

}  // namespace

NP_EXPORT int pthread_mutex_lock(pthread_mutex_t *m) {
  if (syncUncounted()) return real().pthread_mutex_lock(m);
  return countedMutexLock(m);
}

NP_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m) {
  if (syncUncounted()) return real().pthread_mutex_trylock(m);
  return countedMutexTrylock(m);
}

NP_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_mutex_trylock(m); },
                      [&] { return real().pthread_mutex_timedlock(m, abstime); });
}

NP_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clock,
                                      const struct timespec *abstime) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_mutex_trylock(m); },
                      [&] { return real().pthread_mutex_clocklock(m, clock, abstime); });
}

// ---- spin locks --------------------------------------------------------------

namespace {

__attribute__((noinline)) int countedSpinLock(pthread_spinlock_t *s) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_spin_trylock(s); },
                      [&] { return real().pthread_spin_lock(s); });
}

}  // namespace

NP_EXPORT int pthread_spin_lock(pthread_spinlock_t *s) {
  if (syncUncounted()) return real().pthread_spin_lock(s);
  return countedSpinLock(s);
}

NP_EXPORT int pthread_spin_trylock(pthread_spinlock_t *s) {
  resolveRealFunctions();
  return noteTry(real().pthread_spin_trylock(s));
}

// ---- reader-writer locks -------------------------------------------------------

namespace {

__attribute__((noinline)) int countedRdlock(pthread_rwlock_t *l) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_rwlock_tryrdlock(l); },
                      [&] { return real().pthread_rwlock_rdlock(l); });
}

__attribute__((noinline)) int countedWrlock(pthread_rwlock_t *l) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_rwlock_trywrlock(l); },
                      [&] { return real().pthread_rwlock_wrlock(l); });
}

}  // namespace

NP_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *l) {
  if (syncUncounted()) return real().pthread_rwlock_rdlock(l);
  return countedRdlock(l);
}

NP_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
  resolveRealFunctions();
  return noteTry(real().pthread_rwlock_tryrdlock(l));
}

NP_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abstime) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_rwlock_tryrdlock(l); },
                      [&] { return real().pthread_rwlock_timedrdlock(l, abstime); });
}

NP_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *l) {
  if (syncUncounted()) return real().pthread_rwlock_wrlock(l);
  return countedWrlock(l);
}

NP_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
  resolveRealFunctions();
  return noteTry(real().pthread_rwlock_trywrlock(l));
}

NP_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abstime) {
  resolveRealFunctions();
  return lockCounting([&] { return real().pthread_rwlock_trywrlock(l); },
                      [&] { return real().pthread_rwlock_timedwrlock(l, abstime); });
}

// ---- condition variables (the GLIBC_2.3.2 ABI, see real_functions.cpp) --------

NP_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  resolveRealFunctions();
  if (ThreadState *t = countingThread()) ++t->cond_waits;
  return real().pthread_cond_wait(c, m);
}

NP_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                     const struct timespec *abstime) {
  resolveRealFunctions();
  if (ThreadState *t = countingThread()) ++t->cond_waits;
  return real().pthread_cond_timedwait(c, m, abstime);
}

NP_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
                                     const struct timespec *abstime) {
  resolveRealFunctions();
  if (ThreadState *t = countingThread()) ++t->cond_waits;
  return real().pthread_cond_clockwait(c, m, clock, abstime);
}

// ---- barriers and semaphores ------------------------------------------------------

NP_EXPORT int pthread_barrier_wait(pthread_barrier_t *b) {
  resolveRealFunctions();
  if (ThreadState *t = countingThread()) ++t->barrier_waits;
  return real().pthread_barrier_wait(b);
}

NP_EXPORT int sem_wait(sem_t *sem) {
  resolveRealFunctions();
  return semCounting(sem, [&] { return real().sem_wait(sem); });
}

NP_EXPORT int sem_timedwait(sem_t *sem, const struct timespec *abstime) {
  resolveRealFunctions();
  return semCounting(sem, [&] { return real().sem_timedwait(sem, abstime); });
}

NP_EXPORT int sem_clockwait(sem_t *sem, clockid_t clock, const struct timespec *abstime) {
  resolveRealFunctions();
  return semCounting(sem, [&] { return real().sem_clockwait(sem, clock, abstime); });
}

// ---- thread life ---------------------------------------------------------------------

NP_EXPORT int pthread_join(pthread_t thread, void **ret) {
  resolveRealFunctions();
  if (ThreadState *t = countingThread()) ++t->joins;
  return real().pthread_join(thread, ret);
}

NP_EXPORT int pthread_detach(pthread_t thread) {
  resolveRealFunctions();
  return real().pthread_detach(thread);
}

// Threads started through our trampoline are also marked when pthread_exit
// unwinds through it; this covers the main thread and foreign threads.
NP_EXPORT void pthread_exit(void *ret) {
  resolveRealFunctions();
  if (ThreadState *t = ThreadRegistry::current()) {
    if (!RuntimeScope::inside()) {
      closeMigrationCounter(t);
      threadRegistry().markCurrentThreadExited();
    }
  }
  real().pthread_exit(ret);
}
