// Three threads of one type (same start routine) running together, with
// 1 : 1 : 8 units of work. Expected: load_imbalance among threads of one type.
// `./uneven_workers phases`: two pools of the same routine, one after the
// other, each balanced (8 : 8 : 8, then 1 : 1 : 1). Expected: no imbalance
// (threads that never ran together are not compared).
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIT 4096
#define ROUNDS 16

__attribute__((noinline)) static long work(long *buf, long units) {
  long sum = 0;
  for (long r = 0; r < units * ROUNDS; ++r)
    for (int i = 0; i < UNIT; ++i) {
      buf[i] += r;
      sum ^= buf[i];
    }
  return sum;
}

// All three start their work together, so they run side by side even on a
// busy machine (the imbalance test compares threads that ran together).
static int ready, pool_size;

static void *worker(void *arg) {
  long units = (long)arg;
  __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < pool_size) sched_yield();
  long *buf = calloc(UNIT, sizeof *buf);
  long sum = work(buf, units);
  free(buf);
  return (void *)(long)(sum == 42);
}

static void pool(const long units[3]) {
  pthread_t t[3];
  __atomic_store_n(&ready, 0, __ATOMIC_SEQ_CST);
  pool_size = 3;
  for (int i = 0; i < 3; ++i) pthread_create(&t[i], NULL, worker, (void *)units[i]);
  for (int i = 0; i < 3; ++i) pthread_join(t[i], NULL);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "phases") == 0) {
    const long heavy[3] = {8, 8, 8}, light[3] = {1, 1, 1};
    pool(heavy);
    pool(light);
  } else {
    const long units[3] = {1, 1, 8};
    pool(units);
  }
  puts("done");
  return 0;
}
