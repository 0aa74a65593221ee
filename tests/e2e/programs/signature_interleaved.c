// Bandwidth signature: interleaved allocations. One array comes from
// numa_alloc_interleaved, the other is interleaved with
// numa_interleave_memory (libnuma calls mbind inside: the runtime must see
// it). The main thread initialises both, the workers read them: every
// access is to interleaved pages. Works on one node too (the policy is
// recorded all the same).
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
  const long *a, *b;
  long sum;
};

static void *reader(void *arg) {
  struct job *j = arg;
  long sum = 0;
  for (int p = 0; p < PASSES; ++p)
    for (size_t i = 0; i < N; ++i) sum += j->a[i] + j->b[i];
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
  for (size_t i = 0; i < N; ++i) a[i] = (long)i, b[i] = (long)i;
  pthread_t t[WORKERS];
  struct job jobs[WORKERS];
  for (int i = 0; i < WORKERS; ++i) {
    jobs[i].a = a;
    jobs[i].b = b;
    pthread_create(&t[i], NULL, reader, &jobs[i]);
  }
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
  numa_free(a, bytes);
  munmap(b, bytes);
  printf("sum %ld\n", jobs[0].sum);
  return 0;
}
