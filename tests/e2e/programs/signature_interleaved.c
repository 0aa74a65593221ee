// Bandwidth signature: interleaved allocations. One array comes from
// numa_alloc_interleaved, one is interleaved with numa_interleave_memory
// (libnuma calls mbind inside: the runtime must see it), and the third is a
// plain heap block first touched under the main thread's interleave task
// policy (numa_set_interleave_mask: set_mempolicy inside). The main thread
// initialises them, the workers read them: every access is to interleaved
// pages. Works on one node too (the policy is recorded all the same).
// SIGNATURE: read interleaved=1 write interleaved=1 dominant=interleaved
#include <numa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define N (1u << 18)  // longs per array: 2 MiB
#define WORKERS 4
#define PASSES 2

struct job {
  const long *a, *b, *c;
  long sum;
};

static void *reader(void *arg) {
  struct job *j = arg;
  long sum = 0;
  for (int p = 0; p < PASSES; ++p)
    for (size_t i = 0; i < N; ++i) sum += j->a[i] + j->b[i] + j->c[i];
  j->sum = sum;
  return NULL;
}

int main(void) {
  if (numa_available() < 0) {
    fprintf(stderr, "no NUMA support\n");
    return 1;
  }
  size_t bytes = N * sizeof(long);
  long *a = numa_alloc_interleaved(bytes);
  long *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!a || b == MAP_FAILED) return 1;
  numa_interleave_memory(b, bytes, numa_all_nodes_ptr);
  numa_set_interleave_mask(numa_all_nodes_ptr);
  long *c = aligned_alloc(4096, bytes);
  if (!c) return 1;
  for (size_t i = 0; i < N; ++i) a[i] = (long)i, b[i] = (long)i, c[i] = (long)i;
  pthread_t t[WORKERS];
  struct job jobs[WORKERS];
  for (int i = 0; i < WORKERS; ++i) {
    jobs[i].a = a;
    jobs[i].b = b;
    jobs[i].c = c;
    pthread_create(&t[i], NULL, reader, &jobs[i]);
  }
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  numa_free(a, bytes);
  munmap(b, bytes);
  free(c);
  printf("sum %ld\n", jobs[0].sum);
  return 0;
}
