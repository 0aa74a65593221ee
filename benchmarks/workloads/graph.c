/* Random pointer chasing over a large graph: each node holds four pointers
 * to random other nodes; every thread performs random walks, one dependent
 * load chain per step. Stresses: latency-bound code with few accesses per
 * nanosecond (cheap to instrument relative to its cache misses) and a
 * large shadow footprint. Planted NUMA issue: the node array is allocated
 * and wired up by the main thread, then walked by all workers. */
#include <pthread.h>

#include "bench.h"

typedef struct Node {
  struct Node *edge[4];
  uint64_t value;
  uint64_t visits_hint; /* written only by main during construction */
} Node;

static Node *nodes;
static long nnodes, steps, threads;

typedef struct {
  long id;
  uint64_t sum;
} Work;

static void *walker(void *arg) {
  Work *w = (Work *)arg;
  uint64_t seed = 9001 + (uint64_t)w->id * 7919;
  uint64_t sum = 0;
  const long walks = 64;
  for (long k = 0; k < walks; ++k) {
    const Node *p = &nodes[bench_mix(&seed) % (uint64_t)nnodes];
    for (long s = 0; s < steps / walks; ++s) {
      sum += p->value;
      p = p->edge[(p->value ^ (uint64_t)s) & 3];
    }
  }
  w->sum = sum;
  return NULL;
}

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "nodes", "steps", NULL};
  bench_check_args(argc, argv, known);
  threads = bench_arg(argc, argv, "threads", 4);
  nnodes = bench_arg(argc, argv, "nodes", 1 << 21);
  steps = bench_arg(argc, argv, "steps", 8000000);
  nodes = (Node *)malloc((size_t)nnodes * sizeof(Node)); // PLANTED: remote_access
  uint64_t seed = 12345;
  for (long i = 0; i < nnodes; ++i) {
    for (int e = 0; e < 4; ++e) nodes[i].edge[e] = &nodes[bench_mix(&seed) % (uint64_t)nnodes];
    nodes[i].value = bench_mix(&seed) >> 40;
    nodes[i].visits_hint = 0;
  }
  pthread_t *tid = (pthread_t *)malloc((size_t)threads * sizeof *tid);
  Work *work = (Work *)calloc((size_t)threads, sizeof *work);
  for (long t = 0; t < threads; ++t) {
    work[t].id = t;
    pthread_create(&tid[t], NULL, walker, &work[t]);
  }
  uint64_t sum = 0;
  for (long t = 0; t < threads; ++t) {
    pthread_join(tid[t], NULL);
    sum += work[t].sum;
  }
  printf("checksum: %llu\n", (unsigned long long)sum);
  free(work);
  free(tid);
  free(nodes);
  return 0;
}
