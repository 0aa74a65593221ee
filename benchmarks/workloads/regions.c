/* A program in two phases with a region marker around the first (issue 10:
 * profile only what matters). Phase "solve" (inside the region): worker
 * threads sweep a grid that the main thread filled, so every worker read is
 * remote. Phase "post" (outside it): the workers sweep a second array the
 * main thread filled, remote again. In both phases each worker also runs
 * private work through a small, hot function that contributes to no issue.
 *
 * Profiled with NUMAPERF_ACTIVE_REGIONS=solve, the profile must report the
 * first planted issue and not the second; profiled whole, both. The harness
 * (selective.py) checks both, and times the numaperf build with profiling
 * off against the plain build. Built with plain clang, the markers are
 * no-ops (include/numaperf/numaperf.h). Profiling switches at function
 * entry, so each phase runs in functions entered after its switch. */
#include <numaperf/numaperf.h>
#include <pthread.h>

#include "bench.h"

typedef struct {
  const double *data;
  long begin, end, sweeps, id;
  double sum;
} Work;

static long n, sweeps, threads, private_len;

/* The private work's inner step: hot, and behind no issue. */
__attribute__((noinline)) static void smooth(double *x, long i) {
  x[i] = 0.5 * x[i] + 0.25 * (x[i - 1] + x[i + 1]);
}

__attribute__((noinline)) static double private_work(long id) {
  double *mine = (double *)malloc((size_t)private_len * sizeof *mine);
  for (long i = 0; i < private_len; ++i) mine[i] = (double)((i * 7 + id) % 13);
  for (int r = 0; r < 8; ++r)
    for (long i = 1; i + 1 < private_len; ++i) smooth(mine, i);
  double s = mine[private_len / 2];
  free(mine);
  return s;
}

static void *sweep(void *arg) {
  Work *w = (Work *)arg;
  double sum = private_work(w->id);
  for (long s = 0; s < w->sweeps; ++s)
    for (long i = w->begin; i < w->end; ++i) sum += w->data[i] * (1.0 + 1e-9 * (double)s);
  w->sum = sum;
  return NULL;
}

/* Fills `data` on the calling (main) thread, then has the workers sweep it. */
__attribute__((noinline)) static double phase(double *data, long id_base) {
  for (long i = 0; i < n; ++i) data[i] = (double)(i % 1000) * 0.001;
  pthread_t *tid = (pthread_t *)malloc((size_t)threads * sizeof *tid);
  Work *work = (Work *)calloc((size_t)threads, sizeof *work);
  long chunk = n / threads;
  for (long t = 0; t < threads; ++t) {
    work[t] = (Work){data, t * chunk, t + 1 == threads ? n : (t + 1) * chunk, sweeps,
                     id_base + t, 0.0};
    pthread_create(&tid[t], NULL, sweep, &work[t]);
  }
  double sum = 0;
  for (long t = 0; t < threads; ++t) {
    pthread_join(tid[t], NULL);
    sum += work[t].sum;
  }
  free(work);
  free(tid);
  return sum;
}

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "n", "sweeps", "private", NULL};
  bench_check_args(argc, argv, known);
  threads = bench_arg(argc, argv, "threads", 4);
  n = bench_arg(argc, argv, "n", 1 << 22);
  sweeps = bench_arg(argc, argv, "sweeps", 40);
  private_len = bench_arg(argc, argv, "private", 1 << 16);
  if (n < threads || private_len < 3) {
    fprintf(stderr, "regions: need n >= threads and private >= 3\n");
    return 2;
  }
  double *grid = (double *)malloc((size_t)n * sizeof *grid);    // PLANTED: remote_access (in region)
  double *table = (double *)malloc((size_t)n * sizeof *table);  // PLANTED: remote_access
  numaperf_region_begin("solve");
  double a = phase(grid, 0);
  numaperf_region_end("solve");
  double b = phase(table, threads);
  free(grid);
  free(table);
  printf("checksum: %llu\n", (unsigned long long)(bench_quant(a) ^ (bench_quant(b) << 1)));
  return 0;
}
