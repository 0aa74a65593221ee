// Concurrent chained hash table with striped locks: in each round every
// thread inserts its own keys, then (after a barrier) looks up keys inserted
// by all threads plus as many absent ones. Stresses: hashing (arithmetic),
// short pointer chains through nodes allocated by other threads, lock
// traffic. Planted NUMA issue: the bucket array is zero-filled by the main
// thread, so every worker's bucket reads and writes are remote. (The lock
// stripes are 40-byte mutexes packed several to a line, but every stripe is
// taken by every thread: that is true sharing by design, not a plant.)
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "bench.h"
#include "spin_barrier.hpp"

namespace {

struct Node {
  uint64_t key, value;
  Node *next;
};

constexpr size_t kStripes = 256;

struct Table {
  std::vector<Node *> buckets;
  std::mutex *locks;
  size_t mask;

  explicit Table(size_t n) : mask(n - 1) {
    buckets.assign(n, nullptr); // PLANTED: remote_access
    locks = new std::mutex[kStripes];
  }
  ~Table() {
    for (Node *head : buckets)
      while (head) {
        Node *next = head->next;
        delete head;
        head = next;
      }
    delete[] locks;
  }
  static uint64_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
  }
  void insert(uint64_t key, uint64_t value) {
    size_t b = hash(key) & mask;
    Node *n = new Node{key, value, nullptr};
    std::lock_guard<std::mutex> g(locks[b % kStripes]);
    n->next = buckets[b];
    buckets[b] = n;
  }
  bool lookup(uint64_t key, uint64_t *value) {
    size_t b = hash(key) & mask;
    std::lock_guard<std::mutex> g(locks[b % kStripes]);
    for (Node *n = buckets[b]; n; n = n->next)
      if (n->key == key) {
        *value = n->value;
        return true;
      }
    return false;
  }
};

uint64_t keyOf(long thread, long round, long i) {
  return (uint64_t(thread) << 48) | (uint64_t(round) << 32) | uint64_t(i);
}

}  // namespace

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "keys", "rounds", "lookups", nullptr};
  bench_check_args(argc, argv, known);
  long threads = bench_arg(argc, argv, "threads", 4);
  long keys = bench_arg(argc, argv, "keys", 100000);  // per thread and round
  long rounds = bench_arg(argc, argv, "rounds", 4);
  long lookups = bench_arg(argc, argv, "lookups", 4);  // lookup passes per round
  size_t buckets = 1;
  while (buckets < size_t(threads * keys * rounds)) buckets <<= 1;
  Table table(buckets);
  SpinBarrier barrier(threads);
  std::vector<uint64_t> found(static_cast<size_t>(threads)), sums(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (long t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      uint64_t seed = 5 + uint64_t(t);
      uint64_t f = 0, s = 0;
      for (long r = 0; r < rounds; ++r) {
        for (long i = 0; i < keys; ++i) table.insert(keyOf(t, r, i), uint64_t(i) * 31 + uint64_t(t));
        barrier.wait();
        for (long p = 0; p < lookups; ++p)
          for (long i = 0; i < keys; ++i) {
            uint64_t x = bench_mix(&seed);
            // present key of any thread and round so far, or an absent one
            uint64_t k = keyOf(long(x % uint64_t(threads)), long((x >> 8) % uint64_t(r + 1)),
                               long((x >> 20) % uint64_t(keys)) + ((x >> 60) & 1 ? keys : 0));
            uint64_t v;
            if (table.lookup(k, &v)) {
              ++f;
              s += v;
            }
          }
        barrier.wait();
      }
      found[size_t(t)] = f;
      sums[size_t(t)] = s;
    });
  uint64_t f = 0, s = 0;
  for (long t = 0; t < threads; ++t) {
    pool[size_t(t)].join();
    f += found[size_t(t)];
    s += sums[size_t(t)];
  }
  printf("checksum: %llu/%llu\n", (unsigned long long)f, (unsigned long long)s);
  return 0;
}
