// C++: a std::vector built by main, read by std::thread workers through a
// helper in a shared library. Expected: a remote_access issue whose site is
// the marked line (reached through operator new inside std::vector).
#include <thread>
#include <vector>

#include "sum_lib.h"

static std::vector<double> *make_values(size_t n) {
  auto *v = new std::vector<double>(n);  // EXPECT: remote_access
  for (size_t i = 0; i < n; ++i) (*v)[i] = double(i);
  return v;
}

int main() {
  std::vector<double> *values = make_values(1u << 21);
  std::vector<std::thread> workers;
  std::vector<double> sums(2);
  for (int w = 0; w < 2; ++w)
    workers.emplace_back([&, w] { sums[w] = sum_range(values->data(), values->size()); });
  for (auto &t : workers) t.join();
  delete values;
  return sums[0] == sums[1] ? 0 : 1;
}
