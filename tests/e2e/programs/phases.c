// Two phases. In each, main fills an array that worker threads then read
// (every worker read is predicted remote). Phase 1 runs inside the region
// "solve", phase 2 outside it. Each worker also does private work through a
// small, hot function (bump) that contributes to no issue.
// `./phases signal` raises NUMAPERF_TOGGLE_SIGNAL (SIGUSR2) between the
// phases. Profiling switches at function entry: phase() is kept out of line
// so that it is entered after the switch.
#include <numaperf/numaperf.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1u << 20)
#define PRIVATE (1u << 16)
#define WORKERS 3
static long *shared_data, *other_data;

__attribute__((noinline)) static void bump(long *p) { *p += 1; }

__attribute__((noinline)) static long private_work(void) {
  long *mine = malloc(PRIVATE * sizeof *mine);
  memset(mine, 0, PRIVATE * sizeof *mine);
  for (int r = 0; r < 4; ++r)
    for (size_t i = 0; i < PRIVATE; ++i) bump(&mine[i]);
  long s = mine[PRIVATE - 1];
  free(mine);
  return s;
}

struct reader {
  const long *data;
  size_t id;
  long (*read)(const struct reader *);
};

// read_shared and read_other are the same loop on purpose: the filter tests
// drop one by name, and code inlined from a shared helper would keep the
// helper's hooks (docs/filters.md, inlined functions).
__attribute__((noinline)) static long read_shared(const struct reader *r) {
  size_t chunk = N / WORKERS;
  long sum = 0;
  for (int k = 0; k < 3; ++k)
    for (size_t i = r->id * chunk; i < (r->id + 1) * chunk; ++i) sum += r->data[i];
  return sum;
}

__attribute__((noinline)) static long read_other(const struct reader *r) {
  size_t chunk = N / WORKERS;
  long sum = 0;
  for (int k = 0; k < 3; ++k)
    for (size_t i = r->id * chunk; i < (r->id + 1) * chunk; ++i) sum += r->data[i];
  return sum;
}

// Both phases' workers start here, so they are threads of one type: with
// only the first phase profiled, the second's threads have no counted
// accesses, and must not be taken for idle ones (load imbalance).
__attribute__((noinline)) static void *reader_thread(void *arg) {
  const struct reader *r = arg;
  long sum = private_work() + r->read(r);
  return (void *)(sum == 42);
}

__attribute__((noinline)) static void phase(long *data, long (*read)(const struct reader *)) {
  for (size_t i = 0; i < N; ++i) data[i] = (long)i;
  pthread_t t[WORKERS];
  struct reader r[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) {
    r[i] = (struct reader){data, i, read};
    pthread_create(&t[i], NULL, reader_thread, &r[i]);
  }
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
}

int main(int argc, char **argv) {
  shared_data = malloc(N * sizeof *shared_data);  // EXPECT: remote_access
  other_data = malloc(N * sizeof *other_data);    // PHASE2: remote_access
  numaperf_region_begin("solve");
  phase(shared_data, read_shared);
  numaperf_region_end("solve");
  if (argc > 1 && strcmp(argv[1], "signal") == 0) raise(SIGUSR2);
  phase(other_data, read_other);
  free(shared_data);
  free(other_data);
  puts("done");
  return 0;
}
