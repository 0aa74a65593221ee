// Thread life cycles: SHORT short-lived threads (at most BATCH at a time),
// DETACHED detached threads, EXITING threads that leave with pthread_exit
// from a nested call. Every thread meets a one-thread barrier a fixed number
// of times, so the expected barrier-wait counts per type are exact. With
// -DMAIN_PTHREAD_EXIT main itself ends with pthread_exit.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SHORT 2000
#define BATCH 16
#define DETACHED 8
#define EXITING 8
#define WORDS 1000

static pthread_barrier_t solo;  // count 1: never blocks
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int detached_done;

static long total;

__attribute__((noinline)) static long fill(long *mine) {
  long sum = 0;
  for (int i = 0; i < WORDS; ++i) mine[i] = i;
  for (int i = 0; i < WORDS; ++i) sum += mine[i];
  return sum;
}

static void touch(int times) {
  long *mine = malloc(WORDS * sizeof *mine);
  __atomic_fetch_add(&total, fill(mine), __ATOMIC_RELAXED);
  for (int t = 0; t < times; ++t) pthread_barrier_wait(&solo);
  free(mine);
}

static void *short_lived(void *arg) {
  (void)arg;
  touch(2);
  return NULL;
}

static void *detached(void *arg) {
  (void)arg;
  touch(5);
  pthread_mutex_lock(&lock);
  ++detached_done;
  pthread_cond_broadcast(&done_cond);
  pthread_mutex_unlock(&lock);
  return NULL;
}

__attribute__((noinline)) static void leave(void) { pthread_exit(NULL); }

static void *exiting(void *arg) {
  (void)arg;
  touch(7);
  leave();
  return (void *)1;  // not reached
}

int main(void) {
  pthread_barrier_init(&solo, NULL, 1);
  pthread_t t[BATCH];
  for (int done = 0; done < SHORT; done += BATCH) {
    for (int i = 0; i < BATCH; ++i) pthread_create(&t[i], NULL, short_lived, NULL);
    for (int i = 0; i < BATCH; ++i) pthread_join(t[i], NULL);
  }
  for (int i = 0; i < DETACHED; ++i) {
    pthread_t d;
    pthread_create(&d, NULL, detached, NULL);
    pthread_detach(d);
  }
  pthread_t e[EXITING];
  for (int i = 0; i < EXITING; ++i) pthread_create(&e[i], NULL, exiting, NULL);
  for (int i = 0; i < EXITING; ++i) pthread_join(e[i], NULL);
  pthread_mutex_lock(&lock);
  while (detached_done < DETACHED) pthread_cond_wait(&done_cond, &lock);
  pthread_mutex_unlock(&lock);
  long expected = (long)(SHORT + DETACHED + EXITING) * (WORDS * (WORDS - 1L) / 2);
  puts(total == expected ? "done" : "wrong total");
#ifdef MAIN_PTHREAD_EXIT
  fflush(stdout);
  pthread_exit(NULL);  // the process ends with the last thread; exit status 0
#endif
  return 0;
}
