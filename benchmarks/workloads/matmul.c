/* Large dense matrix multiply C = A x B (doubles, i-k-j order with k
 * blocking, rows of C shared out between threads). Stresses: the tightest
 * vectorised inner loop of the suite (two loads and a store per
 * multiply-add natively in SIMD registers), the worst case for a hook per
 * access. Planted NUMA issue: A and B are allocated and filled by the main
 * thread; every worker reads all of B remotely (n^3 reads). Its rows of A
 * are remote too, but each element is read once per row of B (n^2 reads in
 * all, 0.06% of the accesses, about 700 remote reads per ms natively at
 * n=1600): below the default remote-access threshold of 1500 per ms, so by
 * the method's definition not an issue, and not planted. C's rows are first
 * touched by the worker that owns them. */
#include <pthread.h>

#include "bench.h"

static long n, threads;
static double *A, *B, *C;

static void *worker(void *arg) {
  long id = (long)arg;
  long lo = id * n / threads, hi = (id + 1) * n / threads;
  const long kb = 128;
  for (long i = lo; i < hi; ++i)
    for (long j = 0; j < n; ++j) C[i * n + j] = 0;
  for (long k0 = 0; k0 < n; k0 += kb) {
    long k1 = k0 + kb < n ? k0 + kb : n;
    for (long i = lo; i < hi; ++i) {
      double *c = C + i * n;
      for (long k = k0; k < k1; ++k) {
        const double a = A[i * n + k];
        const double *b = B + k * n;
        for (long j = 0; j < n; ++j) c[j] += a * b[j];
      }
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "n", NULL};
  bench_check_args(argc, argv, known);
  threads = bench_arg(argc, argv, "threads", 4);
  n = bench_arg(argc, argv, "n", 1600);
  A = (double *)malloc((size_t)(n * n) * sizeof(double)); // remote, below threshold
  B = (double *)malloc((size_t)(n * n) * sizeof(double)); // PLANTED: remote_access
  C = (double *)malloc((size_t)(n * n) * sizeof(double));
  uint64_t seed = 11;
  for (long i = 0; i < n * n; ++i) {
    A[i] = bench_uniform(&seed) - 0.5;
    B[i] = bench_uniform(&seed) - 0.5;
  }
  pthread_t *tid = (pthread_t *)malloc((size_t)threads * sizeof *tid);
  for (long t = 0; t < threads; ++t) pthread_create(&tid[t], NULL, worker, (void *)t);
  for (long t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
  uint64_t sum = 0;
  for (long i = 0; i < n * n; i += 5) sum += bench_quant(C[i]);
  printf("checksum: %llu\n", (unsigned long long)sum);
  free(tid);
  free(A);
  free(B);
  free(C);
  return 0;
}
