// Ground truth: a global array of per-thread statistics, one int each,
// written by its own thread. Expected: false_sharing on the global `stats`,
// fix padding.
#include <pthread.h>
#include <sched.h>

#define WORKERS 2
volatile int stats[WORKERS * 2];  // EXPECT: false_sharing global stats fix=padding

// Workers start their loops together, so their accesses interleave even
// when the machine is busy.
static int ready;
static void start_together(void) {
  __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < WORKERS) sched_yield();
}

static void *worker(void *arg) {
  long id = (long)arg;
  start_together();
  for (int i = 0; i < 200000; ++i) {
    stats[id * 2] += 1;
    if ((i & 7) == 0) sched_yield();  // interleave even on a busy or small machine
  }
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (long i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  return stats[0] == 200000 ? 0 : 1;
}
