// Loops the pass turns into range hooks (docs/hook-abi.md), with every
// shape the runtime's range counting distinguishes: contiguous and strided,
// forward and backward, elements that cross cache lines, odd strides, reads
// and writes, on pages another thread first touched (remote, single user)
// and then shared by two threads. The e2e case builds it twice, with range
// hooks and with one hook per access, and expects the same counts.
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 15)

static double *a;
static float *f;
static unsigned char *c;
static double sink;

static void *worker(void *arg) {
  (void)arg;
  double s = 0;
  for (long i = 0; i < N; ++i) s += a[i];                 // contiguous reads
  for (long i = 0; i < N; ++i) a[i] = a[i] * 0.5 + 1.0;   // read-modify-write
  for (long i = 0; i < N / 2; ++i) s += a[2 * i];         // stride 16, size 8
  for (long i = 0; i < N - 8; ++i) s += f[i + 1];         // offset: lines crossed
  for (long i = 0; i < N; ++i) c[3 * i] += 1;             // odd stride
  uint64_t u = 0;
  for (long i = 0; i < N / 2; ++i) {                       // 8 bytes every 6:
    uint64_t v;                                            // some cross lines
    memcpy(&v, c + 6 * i, sizeof v);
    u += v;
  }
  s += (double)(u & 0xffff);
  for (long i = N - 1; i >= 0; --i) s += a[i] * (double)i; // backward
  sink = s;
  return NULL;
}

int main(void) {
  a = malloc(N * sizeof *a);
  f = malloc((N + 16) * sizeof *f);
  c = malloc(3 * N);
  for (long i = 0; i < N; ++i) a[i] = (double)i;  // first touch: main
  for (long i = 0; i < N + 16; ++i) f[i] = (float)i;
  for (long i = 0; i < 3 * N; ++i) c[i] = (unsigned char)i;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  double s = 0;
  for (long i = 0; i < N; ++i) s += a[i];  // the owner back on shared pages
  printf("%.1f %.1f %d\n", s, sink, c[3 * 100]);
  free(a);
  free(f);
  free(c);
  return 0;
}
