#include <thread>

#include "counter.h"

namespace demo {

std::uint64_t run_workers(Counter &c, unsigned threads, unsigned n) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&c, t, n] {
      for (unsigned i = 1; i <= n; ++i) c.add(t, i);
    });
  for (auto &th : pool) th.join();
  return c.total();
}

}  // namespace demo
