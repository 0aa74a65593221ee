// Ground truth: per-thread counters packed next to each other in one heap
// block; each thread increments only its own. Expected: false_sharing at the
// allocation line, fix padding.
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "start_together.h"

#define WORKERS 3
static volatile long *counters;

static void *worker(void *arg) {
  size_t id = (size_t)arg;
  start_together(WORKERS);
  for (int i = 0; i < 200000; ++i) {
    counters[id] += 1;
    if ((i & 7) == 0) sched_yield();  // interleave even on a busy or small machine
  }
  return NULL;
}

int main(void) {
  counters = calloc(WORKERS, sizeof *counters);  // EXPECT: false_sharing fix=padding
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  int ok = counters[0] == 200000;
  free((void *)counters);
  return ok ? 0 : 1;
}
