// Page sampling (docs/sampling.md): two 8 MiB arrays and a list of 64 Ki
// nodes, first touched by main. The workers read the first array in blocks
// (every read remote: remote_access), write the second element by element,
// interleaved (each line written by every worker: false sharing), and walk
// the list (remote reads of small blocks of one populous site). All three
// are sampled; the e2e case runs it sampled and exact and compares.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1u << 20)  // longs: 8 MiB
#define WORKERS 4
#define READ_PASSES 4
#define WRITE_PASSES 4

#define NODES (1u << 16)
#define WALKS 2

struct node {
  long value;
  struct node *next;
};

static long *table, *tally;
static struct node *list;
static pthread_barrier_t start;

static void *worker(void *arg) {
  size_t id = (size_t)arg, chunk = N / WORKERS;
  pthread_barrier_wait(&start);
  long sum = 0;
  for (int p = 0; p < READ_PASSES; ++p)
    for (size_t i = id * chunk; i < (id + 1) * chunk; ++i) sum += table[i];
  for (int p = 0; p < WRITE_PASSES; ++p)
    for (size_t i = id; i < N; i += WORKERS) tally[i] += p;
  for (int w = 0; w < WALKS; ++w)
    for (const struct node *n = list; n; n = n->next) sum += n->value;
  return (void *)sum;
}

int main(void) {
  table = malloc(N * sizeof *table);  // EXPECT: remote_access fix=block_interleave
  tally = malloc(N * sizeof *tally);  // EXPECT: false_sharing
  for (size_t i = 0; i < N; ++i) table[i] = (long)i, tally[i] = 0;
  for (size_t i = 0; i < NODES; ++i) {
    struct node *n = malloc(sizeof *n);  // EXPECT: remote_access
    n->value = (long)i;
    n->next = list;
    list = n;
  }
  pthread_barrier_init(&start, NULL, WORKERS);
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  long total = 0;
  for (size_t i = 0; i < WORKERS; ++i) {
    void *r;
    pthread_join(t[i], &r);
    total += (long)r;
  }
  printf("%ld %ld\n", total, tally[N - 1]);
  free(table);
  free(tally);
  while (list) {
    struct node *next = list->next;
    free(list);
    list = next;
  }
  return 0;
}
