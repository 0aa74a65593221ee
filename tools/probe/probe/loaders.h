// Noisy loader threads: each bound to its PU, reading its own buffer on its
// node sequentially, one load per cache line, until stopped. start() returns
// once every loader has its buffer in place and is reading (or throws after
// stopping the others); the destructor stops and joins them all, so nothing
// is left running whatever happens.
#pragma once
#include <hwloc.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "probe/noise_plan.h"

namespace numaperf::probe {

class NoiseLoaders {
 public:
  NoiseLoaders(hwloc_topology_t topo, const NoisePlan& plan) : topo_(topo), plan_(plan) {}
  ~NoiseLoaders() { stop(); }
  NoiseLoaders(const NoiseLoaders&) = delete;
  NoiseLoaders& operator=(const NoiseLoaders&) = delete;

  void start();
  void stop();
  size_t running() const { return threads_.size(); }
  // Cache-line reads done so far by all loaders (to check they do work).
  uint64_t linesRead() const { return lines_.load(); }

 private:
  hwloc_topology_t topo_;
  NoisePlan plan_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> lines_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  size_t ready_ = 0;
  std::vector<std::exception_ptr> errors_;
};

}  // namespace numaperf::probe
