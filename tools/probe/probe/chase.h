// Pointer-chase latency kernel: one random cycle through every cache line of
// a buffer (each line holds the address of the next), so that every load
// depends on the previous one, hardware prefetchers see no pattern, and
// consecutive accesses land on random pages.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace numaperf::probe {

struct LatencyStats {
  double medianNs = 0, minNs = 0, maxNs = 0;
  std::vector<double> samples;  // ns per access, one per repetition
  uint64_t accessesPerRep = 0;
};

LatencyStats statsOf(std::vector<double> samples, uint64_t accessesPerRep);

class ChaseBuffer {
 public:
  // Links the lines of [mem, mem + bytes) into one cycle. bytes must hold at
  // least two lines.
  //   windowBytes == 0: one random order over all lines (default; every
  //     access lands on a random page: prefetchers and TLB reach defeated).
  //   windowBytes > 0: "local" pattern: the lines of each window (e.g. 2 MiB)
  //     in random order, windows one after the other, and only one line in
  //     each pair of lines (stepLines = 2) so that the adjacent-line
  //     prefetcher does not help: DRAM latency with few TLB misses.
  ChaseBuffer(void* mem, size_t bytes, size_t lineBytes = 64, uint64_t seed = 0x9e3779b97f4a7c15ull,
              size_t windowBytes = 0, size_t stepLines = 1);
  size_t lines() const { return lines_; }  // lines in the cycle
  size_t bytes() const { return lines_ * line_ * step_; }
  void* start() const { return start_; }

 private:
  void* start_;
  size_t lines_;
  size_t line_;
  size_t step_ = 1;
};

// Follows n links from p; returns where it stopped.
void* chase(void* p, uint64_t n);

// Warm-up of `warmup` accesses, then `reps` timed runs of `accessesPerRep`.
LatencyStats measureChase(const ChaseBuffer& buf, uint64_t accessesPerRep, unsigned reps, uint64_t warmup);

// Default warm-up: one full cycle for buffers up to 1 Mi lines (64 MiB) (it loads the
// caches), capped above (a DRAM-sized buffer needs no full pass).
uint64_t defaultWarmup(const ChaseBuffer& buf);

double nowSeconds();

}  // namespace numaperf::probe
