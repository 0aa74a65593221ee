// Ground truth: a global array of per-thread statistics, one int each,
// written by its own thread. Expected: false_sharing on the global `stats`,
// fix padding.
#include <pthread.h>
#include <sched.h>

#include "start_together.h"

#define WORKERS 2
volatile int stats[WORKERS * 2];  // EXPECT: false_sharing global stats fix=padding

static void *worker(void *arg) {
  long id = (long)arg;
  start_together(WORKERS);
  for (int i = 0; i < 200000; ++i) {
    stats[id * 2] += 1;
    if ((i & 7) == 0) sched_yield();  // interleave even on a busy or small machine
  }
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (long i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  return stats[0] == 200000 ? 0 : 1;
}
