#include "probe/loaders.h"

#include <memory>

#include "probe/bandwidth.h"
#include "probe/placement.h"

namespace numaperf::probe {

namespace {
std::atomic<uint64_t> g_loaderSink{0};
}

void NoiseLoaders::start() {
  stop();
  stop_ = false;
  ready_ = 0;
  errors_.assign(plan_.loaders.size(), nullptr);
  for (size_t i = 0; i < plan_.loaders.size(); ++i) {
    threads_.emplace_back([this, i] {
      const LoaderSpec& spec = plan_.loaders[i];
      std::unique_ptr<NodeBuffer> buf;
      try {
        bindThreadToPu(topo_, spec.pu);
        buf = std::make_unique<NodeBuffer>(spec.bufferBytes, spec.node);
        writeKernel(buf->data(), buf->size(), i);
      } catch (...) {
        errors_[i] = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lk(mu_);
        ++ready_;
        cv_.notify_all();
      }
      if (errors_[i]) return;
      const char* p = static_cast<const char*>(buf->data());
      size_t lines = buf->size() / 64;
      uint64_t sum = 0;
      while (!stop_.load(std::memory_order_relaxed)) {
        // One chunk of 4096 lines between checks of the stop flag.
        for (size_t l = 0; l < lines && !stop_.load(std::memory_order_relaxed); l += 4096) {
          size_t end = std::min(lines, l + 4096);
          for (size_t k = l; k < end; ++k) sum += *reinterpret_cast<const volatile uint64_t*>(p + k * 64);
          lines_.fetch_add(end - l, std::memory_order_relaxed);
        }
      }
      g_loaderSink += sum;
    });
  }
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return ready_ == threads_.size(); });
  lk.unlock();
  for (auto& e : errors_)
    if (e) {
      stop();
      std::rethrow_exception(e);
    }
}

void NoiseLoaders::stop() {
  stop_ = true;
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

}  // namespace numaperf::probe
