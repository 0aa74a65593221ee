// Ground truth for blocks freed before anything was profiled: their
// block-map entries stay, dead (ObjectRegistry::skipsUnprofiledFree in
// runtime/core/object_registry.h). Run with NUMAPERF_ACTIVE=0: with
// profiling off, main allocates and frees a run of nodes; then profiling
// starts, and main allocates a buffer that the allocator carves from the
// nodes' memory, first touches it, and two threads read it. Expected: one
// remote_access issue, the buffer's, with all of its reads; none at the
// nodes' site, although their dead entries lie inside the buffer. Prints
// "reused" when the buffer covers the first node.
#include <numaperf/numaperf.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NODES 96
#define NODE_BYTES 1100  // past tcache and fastbins: freed chunks merge at once
#define N 15360u         // 120 KiB of longs: under the mmap threshold, from the heap
static long *buf;
static void *nodes[NODES];

__attribute__((noinline)) static void make_nodes(void) {
  for (int i = 0; i < NODES; ++i) {
    nodes[i] = malloc(NODE_BYTES);
    ((volatile char *)nodes[i])[0] = 1;
  }
  for (int i = 0; i < NODES; ++i) free(nodes[i]);
}

static void *reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int r = 0; r < 40; ++r)
    for (size_t i = 0; i < N; ++i) sum += buf[i];
  return (void *)(sum == 42);
}

// Entered after numaperf_start, so its accesses are profiled.
__attribute__((noinline)) static void profiled_phase(void) {
  buf = malloc(N * sizeof *buf);  // EXPECT: remote_access
  uintptr_t b = (uintptr_t)buf, first = (uintptr_t)nodes[0];
  if (b <= first && first < b + N * sizeof *buf) puts("reused");
  for (size_t i = 0; i < N; ++i) buf[i] = (long)i;
  pthread_t t[2];
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
}

int main(void) {
  make_nodes();
  numaperf_start();
  profiled_phase();
  return 0;  // buf stays live: its counts are taken at exit, past the dead entries
}
