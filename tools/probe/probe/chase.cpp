#include "probe/chase.h"

#include <time.h>

#include <algorithm>
#include <stdexcept>

namespace numaperf::probe {

namespace {
volatile uintptr_t g_sink;

struct SplitMix {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound).
  uint64_t below(uint64_t bound) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64); }
};
}  // namespace

double nowSeconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

LatencyStats statsOf(std::vector<double> samples, uint64_t accessesPerRep) {
  LatencyStats s;
  s.samples = samples;
  s.accessesPerRep = accessesPerRep;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  s.medianNs = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.minNs = samples.front();
  s.maxNs = samples.back();
  return s;
}

ChaseBuffer::ChaseBuffer(void* mem, size_t bytes, size_t lineBytes, uint64_t seed, size_t windowBytes, size_t stepLines)
    : line_(lineBytes), step_(stepLines ? stepLines : 1) {
  if (line_ < sizeof(void*)) line_ = 64;
  size_t slot = line_ * step_;
  lines_ = bytes / slot;
  if (lines_ < 2) throw std::invalid_argument("chase buffer needs at least two cache lines");
  if (lines_ > UINT32_MAX) throw std::invalid_argument("chase buffer too large");
  // Visit order: a random permutation of the slots (of each window in turn);
  // each slot points to the next in that order, the last back to the first.
  std::vector<uint32_t> order(lines_);
  for (size_t i = 0; i < lines_; ++i) order[i] = static_cast<uint32_t>(i);
  SplitMix rng{seed};
  size_t window = windowBytes ? std::max<size_t>(windowBytes / slot, 2) : lines_;
  for (size_t lo = 0; lo < lines_; lo += window) {
    size_t n = std::min(window, lines_ - lo);
    for (size_t i = n - 1; i > 0; --i) std::swap(order[lo + i], order[lo + rng.below(i + 1)]);
  }
  char* base = static_cast<char*>(mem);
  for (size_t i = 0; i < lines_; ++i) {
    char* from = base + size_t(order[i]) * slot;
    char* to = base + size_t(order[(i + 1) % lines_]) * slot;
    *reinterpret_cast<void**>(from) = to;
  }
  start_ = base + size_t(order[0]) * slot;
}

__attribute__((noinline)) void* chase(void* p, uint64_t n) {
  void** q = static_cast<void**>(p);
  while (n >= 8) {
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    q = static_cast<void**>(*q);
    n -= 8;
  }
  while (n--) q = static_cast<void**>(*q);
  return q;
}

uint64_t defaultWarmup(const ChaseBuffer& buf) { return std::min<uint64_t>(buf.lines(), uint64_t(1) << 20); }

LatencyStats measureChase(const ChaseBuffer& buf, uint64_t accessesPerRep, unsigned reps, uint64_t warmup) {
  void* p = chase(buf.start(), warmup);
  std::vector<double> samples;
  accessesPerRep = std::max<uint64_t>(accessesPerRep, 1);
  for (unsigned r = 0; r < reps; ++r) {
    double t0 = nowSeconds();
    p = chase(p, accessesPerRep);
    double t1 = nowSeconds();
    samples.push_back((t1 - t0) * 1e9 / double(accessesPerRep));
  }
  g_sink = reinterpret_cast<uintptr_t>(p);
  return statsOf(samples, accessesPerRep);
}

}  // namespace numaperf::probe
