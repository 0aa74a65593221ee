// Ground truth: per-thread data padded to its own cache lines, and buffers
// each thread allocates and uses itself (plus a thread-local scratch array).
// Expected: no issue at all.
#include <pthread.h>
#include <stdlib.h>

#define WORKERS 3
struct padded { _Alignas(64) long count; char pad[56]; };
static struct padded per_thread[WORKERS];
static _Thread_local long scratch[512];

static void *worker(void *arg) {
  size_t id = (size_t)arg;
  long *mine = malloc((1u << 18) * sizeof *mine);
  for (size_t i = 0; i < (1u << 18); ++i) mine[i] = (long)i;
  for (int r = 0; r < 4; ++r)
    for (size_t i = 0; i < (1u << 18); ++i) {
      scratch[i % 512] += mine[i];
      per_thread[id].count += 1;
    }
  free(mine);
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  return per_thread[0].count == 4 * (1 << 18) ? 0 : 1;
}
