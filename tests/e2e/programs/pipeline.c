// A two-stage pipeline: STAGE_THREADS threads of stage_a produce items into a
// bounded queue, as many threads of stage_b consume them. Per item stage_a
// works A_WORK units and stage_b B_WORK units on their own buffers
// (compile with -DA_WORK=9 -DB_WORK=1 for a 9:1 pipeline, equal for a
// balanced one).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef A_WORK
#define A_WORK 9
#endif
#ifndef B_WORK
#define B_WORK 1
#endif
#define STAGE_THREADS 2
#define ITEMS 400  // per thread
#define UNIT 2048  // accesses per work unit
#define QUEUE 16

static long queue[QUEUE];
static int head, tail, count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

__attribute__((noinline)) static long work(long *buf, int units, long seed) {
  long sum = seed;
  for (int u = 0; u < units; ++u)
    for (int i = 0; i < UNIT; ++i) {
      buf[i] = buf[i] * 3 + sum;
      sum ^= buf[i];
    }
  return sum;
}

static void *stage_a(void *arg) {
  (void)arg;
  long *buf = calloc(UNIT, sizeof *buf);
  for (int n = 0; n < ITEMS; ++n) {
    long item = work(buf, A_WORK, n);
    pthread_mutex_lock(&lock);
    while (count == QUEUE) pthread_cond_wait(&not_full, &lock);
    queue[tail] = item;
    tail = (tail + 1) % QUEUE;
    ++count;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
  }
  free(buf);
  return NULL;
}

static void *stage_b(void *arg) {
  (void)arg;
  long *buf = calloc(UNIT, sizeof *buf);
  long sum = 0;
  for (int n = 0; n < ITEMS; ++n) {
    pthread_mutex_lock(&lock);
    while (count == 0) pthread_cond_wait(&not_empty, &lock);
    long item = queue[head];
    head = (head + 1) % QUEUE;
    --count;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&lock);
    sum += work(buf, B_WORK, item);
  }
  free(buf);
  return (void *)(long)(sum == 42);
}

int main(void) {
  pthread_t a[STAGE_THREADS], b[STAGE_THREADS];
  for (int i = 0; i < STAGE_THREADS; ++i) {
    pthread_create(&a[i], NULL, stage_a, NULL);
    pthread_create(&b[i], NULL, stage_b, NULL);
  }
  for (int i = 0; i < STAGE_THREADS; ++i) {
    pthread_join(a[i], NULL);
    pthread_join(b[i], NULL);
  }
  puts("done");
  return 0;
}
