// Two call paths reach one allocation line at the same stack depth, in
// turn: via_shared's objects are later read by worker threads (remote),
// via_private's only by main. With profiling off the runtime recognises a
// repeated allocation by its frame chain (allocation_tracking.h,
// recordRepeatedAllocation); the chains differ only above make(). Run with
// NUMAPERF_ACTIVE=0: the objects are allocated while off, then profiling
// starts. Expected: a remote_access issue at make()'s line (one site: the
// report groups stacks by their innermost line) whose shown stack, the one
// with most of the evidence, goes through via_shared. via_private's objects
// are the same size (so a path that confused the two would take every
// block for the previous one's site) and never read by the workers: if
// their record got the shared objects, the stack shown would go through
// via_private.
#include <numaperf/numaperf.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define OBJECTS 2000
#define LONGS 500  // 4000 bytes an object, about a page
static long *shared_objs[OBJECTS], *private_objs[OBJECTS];

// Real calls, not jumps, so that each of these keeps its frame.
#define CALLER __attribute__((noinline, disable_tail_calls))
CALLER static long *make(size_t longs) { return malloc(longs * sizeof(long)); }
CALLER static long *via_shared(void) { return make(LONGS); }
CALLER static long *via_private(void) { return make(LONGS); }

static void *reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int r = 0; r < 20; ++r)
    for (int i = 0; i < OBJECTS; ++i)
      for (int k = 0; k < LONGS; ++k) sum += shared_objs[i][k];
  return (void *)(long)(sum == 42);
}

// Entered after numaperf_start, so its accesses are profiled.
__attribute__((noinline)) static long profiled_phase(void) {
  for (int i = 0; i < OBJECTS; ++i)
    for (int k = 0; k < LONGS; ++k) shared_objs[i][k] = k;
  for (int i = 0; i < OBJECTS; ++i)
    for (int k = 0; k < 4; ++k) private_objs[i][k] = k;
  pthread_t t[2];
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
  long sum = 0;
  for (int r = 0; r < 20; ++r)
    for (int i = 0; i < OBJECTS; ++i)
      for (int k = 0; k < 4; ++k) sum += private_objs[i][k];
  return sum;
}

int main(void) {
  for (int i = 0; i < OBJECTS; ++i) {
    shared_objs[i] = via_shared();
    private_objs[i] = via_private();
  }
  numaperf_start();
  printf("%ld\n", profiled_phase() > 0 ? 1L : 0L);
  return 0;
}
