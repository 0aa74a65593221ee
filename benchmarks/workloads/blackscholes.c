/* Option pricing (Black-Scholes), compute-bound: each thread prices its own
 * block of options many times; few memory accesses per floating-point
 * operation. Stresses: the cost of hooks on code that is mostly arithmetic.
 * No planted NUMA issue: each thread allocates and initialises its own
 * options. */
#include <math.h>
#include <pthread.h>

#include "bench.h"

typedef struct {
  double spot, strike, rate, vol, years;
  int call;
} Option;

typedef struct {
  long id, count, iters;
  uint64_t sum;
} Work;

static double cnd(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978,
               a5 = 1.330274429;
  double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double w = 1.0 - 0.39894228040143267794 * exp(-d * d / 2) *
                       (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d < 0 ? 1.0 - w : w;
}

static double price(const Option *o) {
  double sq = o->vol * sqrt(o->years);
  double d1 = (log(o->spot / o->strike) + (o->rate + 0.5 * o->vol * o->vol) * o->years) / sq;
  double d2 = d1 - sq;
  double disc = o->strike * exp(-o->rate * o->years);
  return o->call ? o->spot * cnd(d1) - disc * cnd(d2)
                 : disc * cnd(-d2) - o->spot * cnd(-d1);
}

static void *worker(void *arg) {
  Work *w = (Work *)arg;
  Option *opts = (Option *)malloc((size_t)w->count * sizeof *opts);
  double *out = (double *)malloc((size_t)w->count * sizeof *out);
  uint64_t seed = 1000 + (uint64_t)w->id;
  for (long i = 0; i < w->count; ++i) {
    opts[i].spot = 50 + 50 * bench_uniform(&seed);
    opts[i].strike = 50 + 50 * bench_uniform(&seed);
    opts[i].rate = 0.01 + 0.05 * bench_uniform(&seed);
    opts[i].vol = 0.1 + 0.4 * bench_uniform(&seed);
    opts[i].years = 0.25 + 2 * bench_uniform(&seed);
    opts[i].call = (int)(bench_mix(&seed) & 1);
  }
  uint64_t sum = 0;
  for (long it = 0; it < w->iters; ++it) {
    for (long i = 0; i < w->count; ++i) out[i] = price(&opts[i]);
    for (long i = 0; i < w->count; ++i) sum += bench_quant(out[i]);
  }
  w->sum = sum;
  free(opts);
  free(out);
  return NULL;
}

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "options", "iters", NULL};
  bench_check_args(argc, argv, known);
  long threads = bench_arg(argc, argv, "threads", 4);
  long options = bench_arg(argc, argv, "options", 65536);
  long iters = bench_arg(argc, argv, "iters", 550);
  pthread_t *tid = (pthread_t *)malloc((size_t)threads * sizeof *tid);
  Work *work = (Work *)calloc((size_t)threads, sizeof *work);
  for (long t = 0; t < threads; ++t) {
    work[t].id = t;
    work[t].count = options / threads;
    work[t].iters = iters;
    pthread_create(&tid[t], NULL, worker, &work[t]);
  }
  uint64_t sum = 0;
  for (long t = 0; t < threads; ++t) {
    pthread_join(tid[t], NULL);
    sum += work[t].sum;
  }
  printf("checksum: %llu\n", (unsigned long long)sum);
  free(tid);
  free(work);
  return 0;
}
