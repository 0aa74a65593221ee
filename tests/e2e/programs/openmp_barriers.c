// OpenMP: a parallel region of THREADS threads meeting at BARRIERS explicit
// barriers, one worksharing loop (implicit barrier at its end) and an OpenMP
// lock. Built with clang -fopenmp (libomp) or gcc -fopenmp (libgomp).
#include <omp.h>
#include <stdio.h>

#define THREADS 4
#define BARRIERS 50

static long data[THREADS * 1024];

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  long total = 0;
#pragma omp parallel num_threads(THREADS)
  {
    int id = omp_get_thread_num();
    for (int b = 0; b < BARRIERS; ++b) {
      for (int i = 0; i < 1024; ++i) data[id * 1024 + i] += b;
#pragma omp barrier
    }
#pragma omp for
    for (int i = 0; i < THREADS * 1024; ++i) data[i] *= 2;
    for (int k = 0; k < 1000; ++k) {
      omp_set_lock(&lock);
      ++total;
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_lock(&lock);
  printf("threads=%d total=%ld\n", THREADS, total);
  return total == THREADS * 1000 ? 0 : 1;
}
