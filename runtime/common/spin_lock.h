// A tiny test-and-test-and-set lock for the runtime's short critical
// sections (shard maps, registries). Unlike pthread mutexes it is not
// intercepted, never allocates and is usable before initialisation.
#pragma once

#include <atomic>
#include <sched.h>

namespace numaperf {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class SpinLock {
 public:
  void lock() {
    for (;;) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      // With more threads than CPUs the holder may have been preempted:
      // after a short spin, give the CPU away instead of burning the slice.
      for (unsigned spins = 0; locked_.load(std::memory_order_relaxed); ++spins) {
        if (spins < 64) cpuRelax();
        else sched_yield();
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

class SpinLockGuard {
 public:
  explicit SpinLockGuard(SpinLock &l) : l_(l) { l_.lock(); }
  ~SpinLockGuard() { l_.unlock(); }
  SpinLockGuard(const SpinLockGuard &) = delete;
  SpinLockGuard &operator=(const SpinLockGuard &) = delete;

 private:
  SpinLock &l_;
};

}  // namespace numaperf
