// Ground truth: per-thread counters in a global array that starts in the
// cache line of two scalars every worker reads on each step (a loop bound
// and a mask laid out before the array). Expected: false_sharing on the
// global `counts`, fix padding; the scalars, which the workers only read,
// own nothing of the line.
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "start_together.h"

#define WORKERS 2
// Zero-initialised, so all three are in .bss, in this order, the first on a
// line of its own (main checks it, so a compiler laying them out otherwise
// fails the test instead of testing nothing).
volatile long iterations __attribute__((aligned(64)));
volatile long yield_mask;
volatile long counts[WORKERS * 2];  // EXPECT: false_sharing global counts fix=padding

static void *worker(void *arg) {
  long id = (long)arg;
  start_together(WORKERS);
  for (long i = 0; i < iterations; ++i) {
    counts[id * 2] += 1;
    if ((i & yield_mask) == 0) sched_yield();  // interleave even on a busy or small machine
  }
  return NULL;
}

int main(void) {
  uintptr_t line = (uintptr_t)&iterations;
  if ((uintptr_t)&yield_mask != line + 8 || (uintptr_t)&counts[0] != line + 16) {
    fprintf(stderr, "unexpected layout: %p %p %p\n", (void *)&iterations, (void *)&yield_mask,
            (void *)counts);
    return 2;
  }
  iterations = 200000;
  yield_mask = 7;
  pthread_t t[WORKERS];
  for (long i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  return counts[0] == 200000 ? 0 : 1;
}
