// pthread_create is interposed to give each new thread its index and start
// routine before it runs any program code, and to note when it ends (by
// returning or by pthread_exit, which unwinds through the trampoline).
#include "common/internal_alloc.h"
#include "core/runtime_state.h"
#include "interception/held_frees.h"
#include "interception/real_functions.h"
#include "interception/thread_counters.h"

#include <pthread.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace numaperf;

namespace {

struct ThreadStart {
  void *(*routine)(void *);
  void *arg;
};

struct ExitMarker {
  ~ExitMarker() {
    endHeldFrees();
    closeMigrationCounter(ThreadRegistry::current());
    threadRegistry().markCurrentThreadExited();
  }
};

void *threadTrampoline(void *raw) {
  auto *start = static_cast<ThreadStart *>(raw);
  ThreadStart copy = *start;
  internalDelete(start);
  if (profilingActive())
    openMigrationCounter(registerStartedThread(reinterpret_cast<void *>(copy.routine)),
                         /*fresh=*/true);
  ExitMarker marker;
  allowHeldFrees();
  return copy.routine(copy.arg);
}

}  // namespace

NP_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*routine)(void *), void *arg) {
  resolveRealFunctions();
  if (!ensureInitialized()) return real().pthread_create(thread, attr, routine, arg);
  auto *start = internalNew<ThreadStart>(ThreadStart{routine, arg});
  if (!start) return real().pthread_create(thread, attr, routine, arg);
  int rc = real().pthread_create(thread, attr, threadTrampoline, start);
  if (rc != 0) internalDelete(start);
  return rc;
}
