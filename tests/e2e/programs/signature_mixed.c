// Bandwidth signature of a mix: every worker reads its own array once and
// the main thread's table three times (same sizes and loops), so a quarter
// of the reads are local and three quarters static; all writes are
// initialisation by the owner (local).
// SIGNATURE: read local=0.25 static=0.75 write local=1 dominant=static static_thread=0
#include <pthread.h>
#include <stdlib.h>

#define N (1u << 18)  // longs per array: 2 MiB
#define WORKERS 4
#define TABLE_PASSES 3

struct job {
  const long *table;
  long sum;
};

static long sum(const long *a) {
  long s = 0;
  for (size_t i = 0; i < N; ++i) s += a[i];
  return s;
}

static void *worker(void *arg) {
  struct job *j = arg;
  long *mine = aligned_alloc(4096, N * sizeof *mine);
  for (size_t i = 0; i < N; ++i) mine[i] = (long)i;
  long s = sum(mine);
  for (int p = 0; p < TABLE_PASSES; ++p) s += sum(j->table);
  free(mine);
  j->sum = s;
  return NULL;
}

int main(void) {
  long *table = aligned_alloc(4096, N * sizeof *table);
  for (size_t i = 0; i < N; ++i) table[i] = (long)i;
  pthread_t t[WORKERS];
  struct job jobs[WORKERS];
  for (int i = 0; i < WORKERS; ++i) {
    jobs[i].table = table;
    pthread_create(&t[i], NULL, worker, &jobs[i]);
  }
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  free(table);
  return jobs[0].sum == 42;
}
