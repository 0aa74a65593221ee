/* Streaming 2D stencil (Jacobi, 5 points): two n x n grids swept row block
 * by row block by each thread, with a barrier between sweeps. Stresses:
 * long unit-stride loops over large arrays (vectorised natively, so the
 * worst case for a hook per access). Planted NUMA issue: both grids are
 * allocated and initialised by the main thread, so under first-touch every
 * page lives on main's node and the workers' sweeps are remote. */
#include <pthread.h>

#include "bench.h"

static long n, iters, threads;
static double *grid_a, *grid_b;
static pthread_barrier_t barrier;

static void *worker(void *arg) {
  long id = (long)arg;
  long rows = (n - 2) / threads;
  long lo = 1 + id * rows, hi = id == threads - 1 ? n - 1 : lo + rows;
  double *src = grid_a, *dst = grid_b;
  for (long it = 0; it < iters; ++it) {
    for (long i = lo; i < hi; ++i) {
      const double *up = src + (i - 1) * n, *mid = src + i * n, *down = src + (i + 1) * n;
      double *out = dst + i * n;
      for (long j = 1; j < n - 1; ++j)
        out[j] = 0.2 * (mid[j] + mid[j - 1] + mid[j + 1] + up[j] + down[j]);
    }
    pthread_barrier_wait(&barrier);
    double *t = src;
    src = dst;
    dst = t;
  }
  return NULL;
}

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "n", "iters", NULL};
  bench_check_args(argc, argv, known);
  threads = bench_arg(argc, argv, "threads", 4);
  n = bench_arg(argc, argv, "n", 2048);
  iters = bench_arg(argc, argv, "iters", 300);
  grid_a = (double *)malloc((size_t)(n * n) * sizeof(double)); // PLANTED: remote_access
  grid_b = (double *)malloc((size_t)(n * n) * sizeof(double)); // PLANTED: remote_access
  uint64_t seed = 42;
  for (long i = 0; i < n * n; ++i) grid_a[i] = grid_b[i] = bench_uniform(&seed) * 100;
  pthread_barrier_init(&barrier, NULL, (unsigned)threads);
  pthread_t *tid = (pthread_t *)malloc((size_t)threads * sizeof *tid);
  for (long t = 0; t < threads; ++t) pthread_create(&tid[t], NULL, worker, (void *)t);
  for (long t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
  const double *result = iters % 2 ? grid_b : grid_a;
  uint64_t sum = 0;
  for (long i = 0; i < n * n; i += 7) sum += bench_quant(result[i]);
  printf("checksum: %llu\n", (unsigned long long)sum);
  pthread_barrier_destroy(&barrier);
  free(tid);
  free(grid_a);
  free(grid_b);
  return 0;
}
