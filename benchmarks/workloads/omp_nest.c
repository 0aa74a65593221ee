/* OpenMP loop nest: repeated 5x5 convolution of an image, rows shared out by
 * `omp parallel for` (static schedule), with a nested loop over the filter.
 * Stresses: OpenMP runtime threads (created inside libomp), a deep loop nest
 * with many loads per store. Planted NUMA issue: the input image is
 * allocated and filled serially by the main thread before the parallel
 * region (the classic OpenMP first-touch mistake); the output image is
 * first touched in parallel, as it should be. */
#include <omp.h>

#include "bench.h"

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "n", "iters", NULL};
  bench_check_args(argc, argv, known);
  const long threads = bench_arg(argc, argv, "threads", 4);
  const long n = bench_arg(argc, argv, "n", 1536);
  const long iters = bench_arg(argc, argv, "iters", 54);
  omp_set_num_threads((int)threads);
  float *in = (float *)malloc((size_t)(n * n) * sizeof(float)); // PLANTED: remote_access
  float *out = (float *)malloc((size_t)(n * n) * sizeof(float));
  float filter[5][5];
  uint64_t seed = 3;
  for (long i = 0; i < n * n; ++i) in[i] = (float)bench_uniform(&seed);
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b) filter[a][b] = (float)(1 + a * b % 3) / 40.0f;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) out[i * n + j] = 0;
  for (long it = 0; it < iters; ++it) {
#pragma omp parallel for schedule(static)
    for (long i = 2; i < n - 2; ++i)
      for (long j = 2; j < n - 2; ++j) {
        float acc = 0;
        for (int a = 0; a < 5; ++a)
          for (int b = 0; b < 5; ++b) acc += filter[a][b] * in[(i + a - 2) * n + (j + b - 2)];
        out[i * n + j] = acc + 1e-3f * (float)it;
      }
  }
  uint64_t sum = 0;
  for (long i = 0; i < n * n; i += 3) sum += bench_quant((double)out[i]);
  printf("checksum: %llu\n", (unsigned long long)sum);
  free(in);
  free(out);
  return 0;
}
