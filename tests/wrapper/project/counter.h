// Tiny library used by the wrapper's build-system tests.
#pragma once
#include <cstdint>
#include <vector>

namespace demo {

// Per-thread slots, summed at the end (heap memory touched by many threads).
class Counter {
 public:
  explicit Counter(unsigned threads);
  void add(unsigned thread, std::uint64_t value);
  std::uint64_t total() const;

 private:
  std::vector<std::uint64_t> slots_;
};

// Runs `threads` std::threads, each adding 1..n to its slot.
std::uint64_t run_workers(Counter &c, unsigned threads, unsigned n);

}  // namespace demo
