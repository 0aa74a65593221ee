// C++ exceptions thrown through instrumented frames in several threads: the
// unwinder runs over instrumented code and the thread trampoline.
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

static long dive(std::vector<long> &v, int depth) {
  v[depth] += depth;
  if (depth == 40) throw std::runtime_error("deep");
  return dive(v, depth + 1) + 1;
}

int main() {
  std::vector<long> totals(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &totals] {
      std::vector<long> v(64);
      for (int r = 0; r < 200; ++r) {
        try {
          dive(v, 0);
        } catch (const std::exception &) {
          ++totals[t];
        }
      }
      for (long x : v) totals[t] += x;
    });
  for (auto &th : threads) th.join();
  try {
    std::vector<long> v(64);
    dive(v, 0);
  } catch (const std::runtime_error &e) {
    std::printf("main caught: %s\n", e.what());
  }
  long all = 0;
  for (long x : totals) all += x;
  std::printf("exceptions: %ld\n", all);
  return 0;
}
