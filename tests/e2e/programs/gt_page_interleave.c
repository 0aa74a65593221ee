// Ground truth: main initialises an array; each worker then updates every
// W-th cache line across the WHOLE array, so every page is used by all
// workers (no page has a main user) and is written, so it cannot be
// duplicated. No line is shared between workers: no sharing issue.
// Expected: remote_access, fix page_interleave.
#include <pthread.h>
#include <stdlib.h>

#define LINES (1u << 16)  // 4 MiB of 64-byte lines
#define WORKERS 3
typedef struct { long v[8]; } line_t;
static line_t *lines;

static void *worker(void *arg) {
  size_t id = (size_t)arg;
  for (int r = 0; r < 4; ++r)
    for (size_t i = id; i < LINES; i += WORKERS) lines[i].v[r % 8] += (long)i;
  return NULL;
}

int main(void) {
  lines = malloc(LINES * sizeof *lines);  // EXPECT: remote_access fix=page_interleave
  for (size_t i = 0; i < LINES; ++i)
    for (int k = 0; k < 8; ++k) lines[i].v[k] = k;
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  long sum = 0;
  for (size_t i = 0; i < LINES; i += 97) sum += lines[i].v[1];
  free(lines);
  return sum == 42;
}
