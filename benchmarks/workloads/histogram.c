/* Histogram with shared bins: every thread generates its own samples and
 * adds them to one shared array of bins with atomic increments, and counts
 * its progress in a shared array of per-thread counters. Stresses: atomic
 * read-modify-writes on lines shared by all threads (cache-line bouncing
 * natively; hooks reported as stores). Planted NUMA issues: the bins are
 * allocated and cleared by the main thread and then updated by all workers
 * (remote access, true sharing); the per-thread progress counters are
 * adjacent 8-byte slots of one global array (false sharing). */
#include <math.h>
#include <pthread.h>

#include "bench.h"

#define MAX_THREADS 64

static long nbins, samples, threads, chunk;
static uint64_t *bins;
static volatile long progress[MAX_THREADS]; // PLANTED: false_sharing

static void *worker(void *arg) {
  long id = (long)arg;
  uint64_t seed = 31337 + (uint64_t)id;
  double *batch = (double *)malloc((size_t)chunk * sizeof(double));
  for (long done = 0; done < samples; done += chunk) {
    long n = samples - done < chunk ? samples - done : chunk;
    for (long i = 0; i < n; ++i) { /* roughly normal: sum of uniforms */
      double x = bench_uniform(&seed) + bench_uniform(&seed) + bench_uniform(&seed) +
                 bench_uniform(&seed);
      batch[i] = x / 4;
    }
    for (long i = 0; i < n; ++i) {
      long b = (long)(batch[i] * (double)nbins);
      if (b >= nbins) b = nbins - 1;
      __atomic_fetch_add(&bins[b], 1, __ATOMIC_RELAXED);
      progress[id] = progress[id] + 1;
    }
  }
  free(batch);
  return NULL;
}

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "bins", "samples", NULL};
  bench_check_args(argc, argv, known);
  threads = bench_arg(argc, argv, "threads", 4);
  nbins = bench_arg(argc, argv, "bins", 4096);
  samples = bench_arg(argc, argv, "samples", 14000000); /* per thread */
  chunk = 4096;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  /* Every thread adds to every bin: the pages are dominated by invalidations,
   * which numaperf reports as true sharing rather than remote access. */
  bins = (uint64_t *)malloc((size_t)nbins * sizeof(uint64_t)); // PLANTED: true_sharing
  for (long b = 0; b < nbins; ++b) bins[b] = 0;
  pthread_t tid[MAX_THREADS];
  for (long t = 0; t < threads; ++t) pthread_create(&tid[t], NULL, worker, (void *)t);
  for (long t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
  uint64_t sum = 0, total = 0;
  for (long b = 0; b < nbins; ++b) {
    sum += bins[b] * (uint64_t)(b + 1);
    total += bins[b];
  }
  for (long t = 0; t < threads; ++t) total += (uint64_t)progress[t];
  printf("checksum: %llu/%llu\n", (unsigned long long)sum, (unsigned long long)total);
  free(bins);
  return 0;
}
