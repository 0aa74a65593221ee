// Lines two threads take from each other at nearly every access, as in a
// shared histogram: modelled in time windows by default (docs/sampling.md,
// "Hot lines"), exactly with NUMAPERF_SAMPLE_LINE_WINDOWS=1.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "start_together.h"

#define WORKERS 2
#define BINS 64
#define ROUNDS 600000

static uint64_t *bins;
volatile long done[WORKERS];  // EXPECT: false_sharing global done fix=padding

static void *worker(void *arg) {
  long id = (long)arg;
  uint64_t seed = 12345 + (uint64_t)id;
  start_together(WORKERS);
  for (long i = 0; i < ROUNDS; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    __atomic_fetch_add(&bins[(seed >> 33) % BINS], 1, __ATOMIC_RELAXED);
    done[id] = done[id] + 1;
  }
  return NULL;
}

int main(void) {
  bins = calloc(BINS, sizeof *bins);  // EXPECT: true_sharing fix=reduce_sharing
  pthread_t t[WORKERS];
  for (long i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, worker, (void *)i);
  for (long i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  uint64_t total = 0;
  for (int b = 0; b < BINS; ++b) total += bins[b];
  printf("%llu %ld\n", (unsigned long long)total, done[0] + done[1]);
  free(bins);
  return total == (uint64_t)WORKERS * ROUNDS ? 0 : 1;
}
