// Ground truth: a buffer from an anonymous mmap (as custom allocators make),
// initialised by main and read in blocks by workers; part of it is unmapped
// early. Expected: remote_access at the mmap line, fix block_interleave.
#include <pthread.h>
#include <sys/mman.h>

#define BYTES (8u << 20)
#define WORKERS 2
static long *data;
static const size_t n = BYTES / sizeof(long) / 2;  // the half that stays mapped

static void *reader(void *arg) {
  size_t id = (size_t)arg, chunk = n / WORKERS;
  long sum = 0;
  for (int r = 0; r < 4; ++r)
    for (size_t i = id * chunk; i < (id + 1) * chunk; ++i) sum += data[i];
  return (void *)(sum == 42);
}

int main(void) {
  data = mmap(0, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);  // EXPECT: remote_access fix=block_interleave
  if (data == MAP_FAILED) return 2;
  munmap((char *)data + BYTES / 2, BYTES / 2);  // drop the second half unused
  for (size_t i = 0; i < n; ++i) data[i] = (long)i;
  pthread_t t[WORKERS];
  for (size_t i = 0; i < WORKERS; ++i) pthread_create(&t[i], 0, reader, (void *)i);
  for (size_t i = 0; i < WORKERS; ++i) pthread_join(t[i], 0);
  return munmap(data, BYTES / 2) == 0 ? 0 : 1;
}
