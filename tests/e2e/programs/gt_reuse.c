// Ground truth: an object first touched by main and read by workers is freed;
// main then allocates another of the same size (the allocator hands back the
// same addresses) which one worker initialises and uses alone. Expected: a
// remote_access issue for the first object only; the second must not inherit
// main as its pages' first toucher. Prints "reused" when the addresses match.
// Whole pages, so that no page is shared with other heap data (those keep
// their first toucher, as they would on a real machine).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 12288u  // 24 whole pages, below the mmap threshold: the heap hands it back
static long *buf;

static void *reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int r = 0; r < 40; ++r)
    for (size_t i = 0; i < N; ++i) sum += buf[i];
  return (void *)(sum == 42);
}

static void *owner(void *arg) {
  (void)arg;
  for (size_t i = 0; i < N; ++i) buf[i] = (long)i;  // first touch by this thread
  long sum = 0;
  for (int r = 0; r < 4; ++r)
    for (size_t i = 0; i < N; ++i) sum += buf[i];
  return (void *)(sum == 42);
}

int main(void) {
  pthread_t t[2];
  buf = aligned_alloc(4096, N * sizeof *buf);  // EXPECT: remote_access
  for (size_t i = 0; i < N; ++i) buf[i] = (long)i;
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
  void *old = buf;
  free(buf);
  buf = aligned_alloc(4096, N * sizeof *buf);  // second object: used by one thread only
  if ((void *)buf == old) puts("reused");
  pthread_create(&t[0], NULL, owner, NULL);
  pthread_join(t[0], NULL);
  free(buf);
  return 0;
}
