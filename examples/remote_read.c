// A classic NUMA mistake: the main thread initialises a large array (so under
// first-touch placement all of its pages live on the main thread's node) and
// worker threads then read it. numaperf reports the array's allocation line.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N (8u << 20)
#define WORKERS 4

static double *data;

static void *sum_part(void *arg) {
  size_t id = (size_t)arg;
  size_t chunk = N / WORKERS;
  double sum = 0;
  for (int round = 0; round < 4; ++round)
    for (size_t i = id * chunk; i < (id + 1) * chunk; ++i) sum += data[i];
  return (void *)(size_t)(sum > 0);
}

int main(void) {
  data = malloc(N * sizeof *data);  // first touched by main below
  if (!data) return 1;
  for (size_t i = 0; i < N; ++i) data[i] = (double)i;
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, sum_part, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  free(data);
  printf("done\n");
  return 0;
}
