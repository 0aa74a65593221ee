/* Independent DRAM latency measurement, to cross-check `numaperf probe
 * latency` (see probe_dram_check.sh). Shares no code with tools/probe.
 *
 * Method: a dependent chase with a constant stride through a buffer much
 * larger than the last-level cache: plain arithmetic order, no random
 * permutation. The default stride, 1 MiB + 64 B, puts consecutive loads on
 * pages far apart and on different cache-line offsets, so no prefetcher
 * follows it. (Short strides such as 4 KiB + 64 B are partly prefetched on
 * recent Intel cores, next-page and stride prefetchers: they measure less than
 * the real latency. Pass one as the third argument to see it.)
 *
 * usage: probe_dram_check [BUFFER_MIB] [ACCESSES] [STRIDE_BYTES] [huge|small]
 * prints: ns per access (median of 7)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static size_t gcd(size_t a, size_t b) {
  while (b) {
    size_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int main(int argc, char** argv) {
  size_t mib = argc > 1 ? strtoull(argv[1], 0, 10) : 512;
  size_t accesses = argc > 2 ? strtoull(argv[2], 0, 10) : 300000;
  size_t strideBytes = argc > 3 ? strtoull(argv[3], 0, 10) : (1u << 20) + 64;
  int huge = !(argc > 4 && strcmp(argv[4], "small") == 0);
  size_t bytes = mib << 20, line = 64, lines = bytes / line;
  size_t stride = strideBytes / line;
  if (stride < 1) stride = 1;
  /* i -> i + stride (mod lines) is one cycle through all lines when stride
   * and lines are coprime. */
  while (gcd(stride, lines) != 1) ++stride;
  char* raw = mmap(0, bytes + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    perror("mmap");
    return 2;
  }
  char* buf = (char*)(((uintptr_t)raw + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
  madvise(raw, bytes + (2 << 20), huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  for (size_t i = 0; i < lines; ++i) *(void**)(buf + i * line) = buf + ((i + stride) % lines) * line;
  void** p = (void**)buf;
  for (size_t i = 0; i < (lines < 1000000 ? lines : 1000000); ++i) p = (void**)*(void* volatile*)p; /* warm-up */
  double samples[7];
  for (int r = 0; r < 7; ++r) {
    double t0 = now();
    for (size_t i = 0; i < accesses; ++i) p = (void**)*(void* volatile*)p;
    samples[r] = (now() - t0) * 1e9 / (double)accesses;
  }
  qsort(samples, 7, sizeof samples[0], cmp);
  volatile void* sink = p;
  (void)sink;
  printf("%.2f\n", samples[3]);
  return 0;
}
