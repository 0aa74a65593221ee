// Main initialises an array that worker threads then read: every worker read
// is predicted remote. Expected: one remote_access issue at the marked line.
#include <pthread.h>
#include <stdlib.h>

#define N (1u << 21)
#define WORKERS 3
static long *data;

static void *reader(void *arg) {
  size_t id = (size_t)arg, chunk = N / WORKERS;
  long sum = 0;
  for (int r = 0; r < 3; ++r)
    for (size_t i = id * chunk; i < (id + 1) * chunk; ++i) sum += data[i];
  return (void *)(sum == 42);
}

int main(void) {
  data = malloc(N * sizeof *data);  // EXPECT: remote_access fix=block_interleave
  for (size_t i = 0; i < N; ++i) data[i] = (long)i;
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, reader, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  free(data);
  return 0;
}
