// Ground truth: a block large enough for the allocator to give it a mapping
// of its own is first touched by a worker and read by main (a remote access
// issue), then freed. The allocator unmaps it internally, where no
// interposer sees it; main's next block of the same size gets the same
// addresses from the kernel and main alone uses it. Expected: no issue for
// the second block. Its first and last pages are partial (the allocator's
// header, the tail), so they are not forgotten when the first block is
// folded: they must start fresh because the memory was unmapped. Prints
// "reused" when the addresses match.
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N (131072u + 100u)  // about 1 MiB of longs: above glibc's mmap threshold
static long *buf;

static void *owner(void *arg) {
  (void)arg;
  for (size_t i = 0; i < N; ++i) buf[i] = (long)i;  // first touch by this thread
  return NULL;
}

static long readAll(int rounds) {
  long sum = 0;
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < N; ++i) sum += buf[i];
  return sum;
}

int main(void) {
  pthread_t t;
  // A fixed threshold: glibc otherwise raises it past a freed mapped block,
  // and the second block would come from the heap.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  buf = malloc(N * sizeof *buf);  // EXPECT: remote_access
  pthread_create(&t, NULL, owner, NULL);
  pthread_join(t, NULL);
  long sum = readAll(40);
  void *old = buf;
  free(buf);
  buf = malloc(N * sizeof *buf);  // second block: main only
  if ((void *)buf == old) puts("reused");
  for (size_t i = 0; i < N; ++i) buf[i] = (long)i;
  sum += readAll(40);
  free(buf);
  return sum == 42;
}
