// Ground truth: every thread increments the same global counter (atomically).
// Expected: true_sharing on the global `hits`, fix reduce_sharing.
#include <pthread.h>
#include <sched.h>

#include "start_together.h"

#define WORKERS 3
long hits;  // EXPECT: true_sharing global hits fix=reduce_sharing

static void *worker(void *arg) {
  (void)arg;
  start_together(WORKERS);
  for (int i = 0; i < 200000; ++i) {
    __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
    if ((i & 7) == 0) sched_yield();  // interleave even on a busy or small machine
  }
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  return hits == 600000 ? 0 : 1;
}
