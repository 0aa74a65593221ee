#include "counter.h"

namespace demo {

Counter::Counter(unsigned threads) : slots_(threads * 8, 0) {}

void Counter::add(unsigned thread, std::uint64_t value) { slots_[thread * 8] += value; }

std::uint64_t Counter::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t v : slots_) sum += v;
  return sum;
}

}  // namespace demo
