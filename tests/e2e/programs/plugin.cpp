// A shared library (C++, so the e2e programs with a main stay the .c files)
// loaded and unloaded at run time (hostile.c, mode dlopen):
// its global is registered when it loads and folded when it unloads.
#include <pthread.h>
#include <stdint.h>

static long table[1 << 14];

static void *fill(void *arg) {  // each thread its own eighth of the table
  uintptr_t part = (uintptr_t)arg;
  for (int i = 0; i < (1 << 11); ++i) table[part * (1 << 11) + i] += 1;
  return 0;
}

extern "C" long plugin_work(int threads) {
  pthread_t t[8];
  for (int i = 0; i < threads && i < 8; ++i) pthread_create(&t[i], 0, fill, (void *)(uintptr_t)i);
  for (int i = 0; i < threads && i < 8; ++i) pthread_join(t[i], 0);
  long s = 0;
  for (int i = 0; i < (1 << 14); ++i) s += table[i];
  return s;
}
