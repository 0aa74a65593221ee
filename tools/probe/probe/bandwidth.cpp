#include "probe/bandwidth.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "probe/chase.h"
#include "probe/error.h"
#include "probe/placement.h"

namespace numaperf::probe {

namespace {
std::atomic<uint64_t> g_bwSink{0};
}

const char* bwKindName(BwKind k) {
  switch (k) {
    case BwKind::Read: return "read";
    case BwKind::Write: return "write";
    case BwKind::Mixed: return "mixed";
  }
  return "?";
}

uint64_t readKernel(const void* p, size_t bytes) {
  const uint64_t* w = static_cast<const uint64_t*>(p);
  size_t n = bytes / 8;
  uint64_t a = 0, b = 0, c = 0, d = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    a += w[i];
    b += w[i + 1];
    c += w[i + 2];
    d += w[i + 3];
  }
  for (; i < n; ++i) a += w[i];
  return a + b + c + d;
}

void writeKernel(void* p, size_t bytes, uint64_t value) {
  uint64_t* w = static_cast<uint64_t*>(p);
  size_t n = bytes / 8;
  // The index in the value keeps compilers from turning this into memset
  // (which may use non-temporal stores for large sizes).
  for (size_t i = 0; i < n; ++i) w[i] = value ^ i;
}

void copyKernel(void* dst, const void* src, size_t bytes) {
  uint64_t* d = static_cast<uint64_t*>(dst);
  const uint64_t* s = static_cast<const uint64_t*>(src);
  size_t n = bytes / 8;
  for (size_t i = 0; i < n; ++i) d[i] = s[i] + 1;
}

BandwidthResult measureBandwidth(hwloc_topology_t topo, const std::vector<unsigned>& pus, unsigned memNode, BwKind kind,
                                 uint64_t bytesPerThread, double seconds) {
  const size_t block = 256 << 10;
  bytesPerThread = std::max<uint64_t>(bytesPerThread / block * block, 2 * block);
  size_t n = pus.size();
  std::mutex mu;
  std::condition_variable cv;
  size_t ready = 0;
  bool go = false;
  std::atomic<bool> stop{false};
  std::vector<std::exception_ptr> errors(n);
  std::vector<uint64_t> bytesDone(n, 0);
  std::vector<double> endTime(n, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      std::unique_ptr<NodeBuffer> buf;
      try {
        bindThreadToPu(topo, pus[t]);
        buf = std::make_unique<NodeBuffer>(bytesPerThread, memNode);
        writeKernel(buf->data(), buf->size(), 1);
      } catch (...) {
        errors[t] = std::current_exception();
      }
      {
        std::unique_lock<std::mutex> lk(mu);
        ++ready;
        cv.notify_all();
        cv.wait(lk, [&] { return go; });
      }
      if (errors[t]) return;
      char* p = static_cast<char*>(buf->data());
      size_t half = buf->size() / 2 / block * block;
      uint64_t done = 0, sum = 0;
      size_t off = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        switch (kind) {
          case BwKind::Read:
            sum += readKernel(p + off, block);
            done += block;
            off = (off + block) % buf->size();
            break;
          case BwKind::Write:
            writeKernel(p + off, block, done);
            done += block;
            off = (off + block) % buf->size();
            break;
          case BwKind::Mixed:
            copyKernel(p + half + off, p + off, block);
            done += 2 * block;
            off = (off + block) % half;
            break;
        }
      }
      endTime[t] = nowSeconds();
      bytesDone[t] = done;
      g_bwSink += sum;
    });
  }
  double t0;
  {
    std::unique_lock<std::mutex> lk(mu);
    cv.wait(lk, [&] { return ready == n; });
    go = true;
    t0 = nowSeconds();
    cv.notify_all();
  }
  bool failed = false;
  for (auto& e : errors) failed |= static_cast<bool>(e);
  if (!failed) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& th : threads) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  BandwidthResult r;
  r.threads = static_cast<unsigned>(n);
  double end = t0;
  for (size_t t = 0; t < n; ++t) {
    r.bytes += bytesDone[t];
    end = std::max(end, endTime[t]);
  }
  r.seconds = end - t0;
  r.gbPerSecond = r.seconds > 0 ? double(r.bytes) / r.seconds / 1e9 : 0;
  return r;
}

}  // namespace numaperf::probe
