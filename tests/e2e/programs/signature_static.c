// Bandwidth signature: one master-initialised shared table read by all.
// The main thread writes the table alone (local writes); the workers then
// read all of it (static reads, on the main thread's node).
// SIGNATURE: read static=1 write local=1 dominant=static static_thread=0
#include <pthread.h>
#include <stdlib.h>

#define N (1u << 19)  // longs: 4 MiB
#define WORKERS 4
#define PASSES 2

struct job {
  const long *table;
  long sum;
};

static void *reader(void *arg) {
  struct job *j = arg;
  long sum = 0;
  for (int p = 0; p < PASSES; ++p)
    for (size_t i = 0; i < N; ++i) sum += j->table[i];
  j->sum = sum;
  return NULL;
}

int main(void) {
  long *table = aligned_alloc(4096, N * sizeof *table);
  for (size_t i = 0; i < N; ++i) table[i] = (long)i;
  pthread_t t[WORKERS];
  struct job jobs[WORKERS];
  for (int i = 0; i < WORKERS; ++i) {
    jobs[i].table = table;
    pthread_create(&t[i], NULL, reader, &jobs[i]);
  }
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  free(table);
  return jobs[0].sum == 42;
}
