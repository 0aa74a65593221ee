// Bandwidth signature: each thread initialises 1/n of a shared array, then
// all read all. Each worker writes its own chunk alone (local writes), then
// every page is read by every worker (per-thread reads).
// SIGNATURE: read per_thread=1 write local=1 dominant=per_thread
#include <pthread.h>
#include <stdlib.h>

#define N (1u << 19)  // longs: 4 MiB, 1 MiB per worker
#define WORKERS 4
#define PASSES 2

static long *shared_array;
static pthread_barrier_t initialised;

static void *worker(void *arg) {
  size_t id = (size_t)arg, chunk = N / WORKERS;
  long *a = shared_array;
  for (size_t i = id * chunk; i < (id + 1) * chunk; ++i) a[i] = (long)i;
  pthread_barrier_wait(&initialised);
  long sum = 0;
  for (int p = 0; p < PASSES; ++p)
    for (size_t i = 0; i < N; ++i) sum += a[i];
  return (void *)(sum == 42);
}

int main(void) {
  shared_array = aligned_alloc(4096, N * sizeof *shared_array);
  pthread_barrier_init(&initialised, NULL, WORKERS);
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  free(shared_array);
  return 0;
}
