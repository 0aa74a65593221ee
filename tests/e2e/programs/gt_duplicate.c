// Ground truth: main fills a lookup table once; every worker then reads the
// whole table many times and never writes it. Expected: remote_access, fix
// duplicate (read-only after its last write).
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define ENTRIES (1u << 19)  // 2 MiB of ints
#define WORKERS 3
static int *table;

static void *worker(void *arg) {
  uint32_t x = (uint32_t)(uintptr_t)arg * 2654435761u + 1;
  long sum = 0;
  for (int i = 0; i < (1 << 21); ++i) {
    x = x * 1664525u + 1013904223u;  // pseudo-random lookups
    sum += table[x % ENTRIES];
  }
  return (void *)(sum == 42);
}

int main(void) {
  table = malloc(ENTRIES * sizeof *table);  // EXPECT: remote_access fix=duplicate
  for (uint32_t i = 0; i < ENTRIES; ++i) table[i] = (int)(i * 7);
  pthread_t t[WORKERS];
  for (uintptr_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  free(table);
  return 0;
}
