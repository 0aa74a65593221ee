// A spinning, yielding barrier for the C++ workloads: it keeps
// synchronisation inside the workload (no pthread barrier), so the cost
// measured is that of memory accesses, not of intercepted sync calls.
#pragma once

#include <atomic>
#include <thread>

class SpinBarrier {
 public:
  explicit SpinBarrier(long n) : n_(n) {}
  void wait() {
    long gen = gen_.load();
    if (count_.fetch_add(1) + 1 == n_) {
      count_.store(0);
      gen_.fetch_add(1);
    } else {
      while (gen_.load() == gen) std::this_thread::yield();
    }
  }

 private:
  long n_;
  std::atomic<long> count_{0}, gen_{0};
};
