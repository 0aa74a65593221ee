#include <cstdio>

#include "counter.h"

int main() {
  const unsigned threads = 4, n = 1000;
  demo::Counter c(threads);
  std::uint64_t got = demo::run_workers(c, threads, n);
  std::uint64_t want = std::uint64_t(threads) * n * (n + 1) / 2;
  std::printf("total %llu (want %llu)\n", (unsigned long long)got, (unsigned long long)want);
  return got == want ? 7 : 1;  // 7: a distinctive "success" exit code
}
