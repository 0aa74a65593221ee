// Frees made with profiling off are held back per thread and passed on in
// batches (runtime/interception/held_frees.h). This program checks, with
// glibc's count of bytes in use, that none of them is lost:
//  - threads that free a number of small blocks that is not a multiple of
//    the batch and then end, by returning or by pthread_exit, leave nothing
//    allocated;
//  - the main thread, freeing many blocks, has at most a batch of them
//    still allocated;
//  - once profiling is on and something was profiled, main's next free
//    passes the held blocks on.
// Prints "ok" and exits 0 when all hold, with or without numaperf.
#include <numaperf/numaperf.h>

#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 1000     // held (at most 1 KiB)
#define PER_THREAD 45  // not a multiple of the batch (32)
#define THREADS 4
#define MAIN_BLOCKS 1000
#define BATCH_BYTES (32 * 1024)
// A thread may be given an arena the first round did not create, and glibc
// counts its header (about 2.2 KiB) as in use. Blocks a thread kept held
// would be 13 of BLOCK bytes (45 less a batch of 32): past this at once.
#define ARENA_SLACK (THREADS * 4096)

static size_t in_use(void) { return mallinfo2().uordblks; }

static int fail(const char *what, size_t before, size_t after) {
  printf("FAIL %s: %zu bytes in use before, %zu after\n", what, before, after);
  return 1;
}

__attribute__((noinline)) static void alloc_and_free(int n) {
  void *blocks[MAIN_BLOCKS];
  for (int i = 0; i < n; ++i) blocks[i] = malloc(BLOCK);
  // In scattered order (a stride prime to n), as a program freeing a linked
  // structure would: blocks freed next to the one before are not held.
  for (int i = 0; i < n; ++i) free(blocks[(i * 17) % n]);
}

static void *worker(void *arg) {
  alloc_and_free(PER_THREAD);
  if (arg) pthread_exit(NULL);
  return NULL;
}

static void run_threads(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, worker, (void *)(i % 2));
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
}

// An access the instrumented build counts once profiling is on.
__attribute__((noinline)) static long touch(volatile long *p) { return *p += 1; }

int main(void) {
  run_threads();  // the runtime and glibc set themselves up for threads
  size_t before = in_use();
  run_threads();
  size_t after = in_use();
  if (after > before + ARENA_SLACK) return fail("threads ended with blocks held", before, after);

  before = in_use();
  alloc_and_free(MAIN_BLOCKS);
  after = in_use();
  if (after > before + BATCH_BYTES) return fail("main holds more than a batch", before, after);

  numaperf_start();
  long *counter = calloc(64, sizeof *counter);
  touch(counter);
  free(counter);
  after = in_use();
  if (after > before) return fail("held blocks kept after profiling started", before, after);
  printf("ok\n");
  return 0;
}
