// Bandwidth signature: all data thread-local. Each worker allocates,
// initialises and reads its own array; no page is used by another thread.
// SIGNATURE: read local=1 write local=1 dominant=local
#include <pthread.h>
#include <stdlib.h>

#define N (1u << 18)  // longs per worker: 2 MiB
#define WORKERS 4
#define PASSES 4

static void *worker(void *arg) {
  long *mine = aligned_alloc(4096, N * sizeof *mine);
  for (size_t i = 0; i < N; ++i) mine[i] = (long)i;
  long sum = 0;
  for (int p = 0; p < PASSES; ++p)
    for (size_t i = 0; i < N; ++i) sum += mine[i];
  free(mine);
  *(long *)arg = sum;
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  long sums[WORKERS];
  for (int i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, &sums[i]);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  return sums[0] == 42;
}
