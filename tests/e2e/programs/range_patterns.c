// Loops the pass turns into range hooks (docs/hook-abi.md), with every
// shape the runtime's range counting distinguishes: contiguous and strided,
// forward and backward, elements that cross cache lines, odd strides, reads
// and writes, on pages another thread first touched (remote, single user)
// and then shared by two threads, pages two readers share that nobody
// writes while shared, and loads of one address on every iteration (stride
// 0: a coefficient a store in the loop may alias). The e2e case builds it twice, with range hooks and
// with one hook per access, and expects the same counts.
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
static double *g;  // read by two threads at once, written by nobody then
static double *coef;  // one value read on every iteration
static double *kept, *kept_next;  // a worker's rows, freed by main

// What a reader works on and where it puts its result: on a page of its
// own (aligned_alloc), as is its output, so that the readers write no page
// in common (whose line states would depend on which reader ends first).
struct reader_job {
  const double *g;
  double *out;
  double sum;
};

static void *reader(void *arg) {
  struct reader_job *job = arg;
  const double *g = job->g;
  double s = 0;
  for (long i = 0; i < N; ++i) s += g[i];                 // contiguous
  for (long i = 0; i < N / 3; ++i) s += g[3 * i + 1];     // stride 24
  uint64_t u = 0;
  for (long i = 0; i < N / 2; ++i) {                       // 8 bytes every 12:
    uint64_t v;                                            // some cross lines
    memcpy(&v, (const char *)g + 12 * i + 4, sizeof v);
    u += v;
  }
  double *out = job->out;
  // Stride 0 on a shared page. Scalar loops: the vectoriser would hoist
  // the load behind a run-time alias check.
#pragma clang loop vectorize(disable)
  for (long i = 0; i < N / 4; ++i) out[i] = g[i] * g[N / 2];
  job->sum = s + (double)(u & 0xff) + out[N / 8];
  return NULL;
}

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
#pragma clang loop vectorize(disable)
  for (long i = 0; i < N; ++i) a[i] += *coef;               // stride 0, remote
  // Rows of the worker's own, accumulated over rows of a (a matrix
  // product's row of C): their ranges repeat exactly for every outer
  // iteration, and the runtime counts such repeats together
  // (range_repeats.h): when memory on their pages is freed (acc, and next,
  // which shares a page with acc) or the thread ends (keep, on pages of
  // its own).
  enum { kRow = 1024, kRows = 24 };
  double *acc = malloc(kRow * sizeof *acc), *next = malloc(kRow * sizeof *next);
  double *keep = aligned_alloc(4096, kRow * sizeof *keep);
  for (long j = 0; j < kRow; ++j) acc[j] = next[j] = keep[j] = 0;
  for (long r = 0; r < kRows; ++r)
    for (long j = 0; j < kRow; ++j) acc[j] += a[r * kRow + j];
  for (long r = 0; r < kRows; ++r)
    for (long j = 0; j < kRow; ++j) keep[j] += acc[j] * 0.5;
  for (long r = 0; r < kRows; ++r)
    for (long j = 0; j < kRow; ++j) next[j] += acc[j];
  s += acc[7];
  free(acc);
  kept = keep;
  kept_next = next;
  sink = s;
  return NULL;
}

int main(void) {
  a = malloc(N * sizeof *a);
  f = malloc((N + 16) * sizeof *f);
  c = malloc(3 * N);
  coef = malloc(sizeof *coef);
  *coef = 0.25;
  for (long i = 0; i < N; ++i) a[i] = (double)i;  // first touch: main
  for (long i = 0; i < N + 16; ++i) f[i] = (float)i;
  for (long i = 0; i < 3 * N; ++i) c[i] = (unsigned char)i;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  g = malloc(N * sizeof *g);
  // Whole pages each: two arrays sharing a page would make its first touch
  // (and the other reader's remote accesses) a race between the readers.
  struct reader_job *jobs[2];
  for (long i = 0; i < 2; ++i) {
    jobs[i] = aligned_alloc(4096, 4096);
    jobs[i]->g = g;
    jobs[i]->out = aligned_alloc(4096, N / 4 * sizeof(double));
  }
  for (long i = 0; i < N; ++i) g[i] = (double)(i % 7);  // first touch: main
  pthread_t r[2];
  for (long i = 0; i < 2; ++i) pthread_create(&r[i], NULL, reader, jobs[i]);
  for (long i = 0; i < 2; ++i) pthread_join(r[i], NULL);
  double s = jobs[0]->sum + jobs[1]->sum;
  for (long i = 0; i < N; ++i) s += a[i];  // the owner back on shared pages
  printf("%.1f %.1f %d %.1f %.1f\n", s, sink, c[3 * 100], kept[5], kept_next[5]);
  free(kept);
  free(kept_next);
  free(a);
  free(f);
  free(c);
  free(g);
  free(coef);
  for (long i = 0; i < 2; ++i) {
    free(jobs[i]->out);
    free(jobs[i]);
  }
  return 0;
}
