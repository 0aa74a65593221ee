// Three-stage pipeline connected by bounded queues (mutex + condition
// variables): one producer fills heap blocks, several transformers rewrite
// them in place, one consumer reduces and frees them. Stresses: blocking
// hand-offs between threads, allocation in one thread and free in another,
// data that moves from thread to thread. Planted NUMA issue: each block is
// allocated and filled by the producer, then read and written by a
// transformer and read by the consumer.
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "bench.h"

namespace {

struct Block {
  long seq;
  double data[1024];
};

class Queue {
 public:
  explicit Queue(size_t cap) : cap_(cap) {}
  void push(Block *b) {
    std::unique_lock<std::mutex> l(m_);
    not_full_.wait(l, [&] { return q_.size() < cap_; });
    q_.push_back(b);
    not_empty_.notify_one();
  }
  Block *pop() {  // nullptr once closed and drained
    std::unique_lock<std::mutex> l(m_);
    not_empty_.wait(l, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return nullptr;
    Block *b = q_.front();
    q_.pop_front();
    not_full_.notify_one();
    return b;
  }
  void close() {
    std::lock_guard<std::mutex> l(m_);
    closed_ = true;
    not_empty_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable not_empty_, not_full_;
  std::deque<Block *> q_;
  size_t cap_;
  bool closed_ = false;
};

}  // namespace

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "blocks", "work", nullptr};
  bench_check_args(argc, argv, known);
  const long threads = bench_arg(argc, argv, "threads", 4);  // producer + transformers + consumer
  const long blocks = bench_arg(argc, argv, "blocks", 80000);
  const long work = bench_arg(argc, argv, "work", 4);  // smoothing passes per block
  const long transformers = threads > 2 ? threads - 2 : 1;
  Queue raw(64), done(64);
  std::thread producer([&] {
    uint64_t seed = 7;
    for (long i = 0; i < blocks; ++i) {
      Block *b = new Block; // PLANTED: remote_access
      b->seq = i;
      for (double &d : b->data) d = bench_uniform(&seed);
      raw.push(b);
    }
    raw.close();
  });
  std::vector<std::thread> middle;
  for (long t = 0; t < transformers; ++t)
    middle.emplace_back([&] {
      while (Block *b = raw.pop()) {
        for (long w = 0; w < work; ++w)
          for (size_t i = 1; i < 1024; ++i) b->data[i] = 0.5 * (b->data[i] + b->data[i - 1]);
        done.push(b);
      }
    });
  uint64_t sum = 0, count = 0;
  std::thread consumer([&] {
    while (Block *b = done.pop()) {
      double s = 0;
      for (double d : b->data) s += d;
      sum += bench_quant(s) ^ uint64_t(b->seq);
      ++count;
      delete b;
    }
  });
  producer.join();
  for (auto &t : middle) t.join();
  done.close();
  consumer.join();
  printf("checksum: %llu/%llu\n", (unsigned long long)sum, (unsigned long long)count);
  return 0;
}
