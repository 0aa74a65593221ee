// Every thread allocates, initialises and reads only its own memory: nothing
// is predicted remote. Expected: no issue.
#include <pthread.h>
#include <stdlib.h>

#define N (1u << 20)
#define WORKERS 3

static void *worker(void *arg) {
  (void)arg;
  long *mine = malloc(N * sizeof *mine);
  for (size_t i = 0; i < N; ++i) mine[i] = (long)i;
  long sum = 0;
  for (int r = 0; r < 3; ++r)
    for (size_t i = 0; i < N; ++i) sum += mine[i];
  free(mine);
  return (void *)(sum == 42);
}

int main(void) {
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, NULL);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  return 0;
}
