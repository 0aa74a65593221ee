// A global table filled by main and read by workers. Expected: a
// remote_access issue on the global `lookup_table`, and exit status 3 kept.
#include <pthread.h>

#define N (1u << 20)
#define WORKERS 2
int lookup_table[N];  // EXPECT: remote_access global lookup_table

static void *reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int r = 0; r < 4; ++r)
    for (unsigned i = 0; i < N; ++i) sum += lookup_table[i];
  return (void *)(sum == 42);
}

int main(void) {
  for (unsigned i = 0; i < N; ++i) lookup_table[i] = (int)i;
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, reader, 0);
  for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  return 3;
}
