// What numaperf's interceptors cost a program that calls them once per cache
// miss (docs/benchmarks.md, "Interceptor cost"). Between two calls the
// program loads one random line of a table larger than the caches, as a
// hash table does, so the runtime's own globals do not stay cached and
// every line an interceptor reads counts. Each load's address depends on the
// previous load's value, so loads do not overlap: one miss per operation.
//
//   interceptor_cost MODE [ops=N] [table_mib=M] [reps=R] [pad=A]
//   MODE: alloc  new of a 24-byte node + a random load; then the nodes are
//                deleted in random order, each after a random load
//         lock   lock and unlock one of 256 mutexes (never contended) + a
//                random load
//         load   the random load alone (the baseline the others include)
//         insert new of a node, pushed under one of 256 locks onto a random
//                slot of the table (hashtable's insert): the slots' misses do
//                not depend on one another, so the processor overlaps them
//                as far as its instruction window reaches. pad=A adds A
//                independent register additions per insert, no call: the
//                calibration for what a longer path alone costs there.
// Prints "MODE ns_per_op X" for the best of R repetitions (and, for alloc,
// the new and delete halves).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Node {
  uint64_t key, value;
  Node *next;
};

uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

long argOf(int argc, char **argv, const char *name, long fallback) {
  const size_t n = strlen(name);
  for (int i = 2; i < argc; ++i)
    if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') {
      char *end = nullptr;
      long v = strtol(argv[i] + n + 1, &end, 10);
      if (*end || v <= 0) {
        fprintf(stderr, "interceptor_cost: bad value for %s: %s\n", name, argv[i] + n + 1);
        exit(2);
      }
      return v;
    }
  return fallback;
}

double nsSince(std::chrono::steady_clock::time_point t0, long ops) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
         double(ops);
}

}  // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "alloc" && mode != "lock" && mode != "load" && mode != "insert") {
    fprintf(stderr,
            "usage: interceptor_cost alloc|lock|load|insert [ops=N] [table_mib=M] [reps=R] [pad=A]\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i)
    if (strncmp(argv[i], "ops=", 4) != 0 && strncmp(argv[i], "table_mib=", 10) != 0 &&
        strncmp(argv[i], "reps=", 5) != 0 && strncmp(argv[i], "pad=", 4) != 0) {
      fprintf(stderr, "interceptor_cost: unknown argument %s (ops=, table_mib=, reps=, pad=)\n",
              argv[i]);
      return 2;
    }
  const long ops = argOf(argc, argv, "ops", 1000000);
  const long table_mib = argOf(argc, argv, "table_mib", 64);
  const long reps = argOf(argc, argv, "reps", 5);
  const long pad_rounds = argOf(argc, argv, "pad", 4) / 4;  // four additions a round
  const size_t slots = size_t(table_mib) << 17;  // 8-byte slots
  std::vector<uint64_t> table(slots, 1);
  std::vector<Node *> nodes(size_t(ops), nullptr);
  std::vector<std::mutex> locks(256);
  uint64_t seed = 7, sink = 0;
  double best = 1e300, best_new = 1e300, best_delete = 1e300;
  for (long r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (mode == "load") {
      for (long i = 0; i < ops; ++i) sink += table[(mix(&seed) + sink) % slots];
      best = std::min(best, nsSince(t0, ops));
    } else if (mode == "insert") {
      for (long i = 0; i < ops; ++i) {
        uint64_t x = mix(&seed);
        for (long k = 1; k < pad_rounds; ++k) {  // pad=4 (the default) adds nothing
          uint64_t a = x, b = x, c = x, d = x;  // four independent chains
          asm volatile("add $1, %0\n\tadd $1, %1\n\tadd $1, %2\n\tadd $1, %3"
                       : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
          asm volatile("" ::"r"(a + b + c + d));
        }
        const size_t slot = (x >> 8) % slots;
        Node *n = new Node{x, uint64_t(i), nullptr};
        nodes[size_t(i)] = n;
        std::lock_guard<std::mutex> guard(locks[x & 255]);
        n->next = reinterpret_cast<Node *>(table[slot]);
        table[slot] = reinterpret_cast<uint64_t>(n);
      }
      best = std::min(best, nsSince(t0, ops));
      for (long i = 0; i < ops; ++i) {  // untimed: the next repetition starts afresh
        table[((nodes[size_t(i)]->key >> 8)) % slots] = 1;
        delete nodes[size_t(i)];
      }
    } else if (mode == "lock") {
      for (long i = 0; i < ops; ++i) {
        uint64_t x = mix(&seed);
        std::lock_guard<std::mutex> guard(locks[x & 255]);
        sink += table[((x >> 8) + sink) % slots];
      }
      best = std::min(best, nsSince(t0, ops));
    } else {
      for (long i = 0; i < ops; ++i) {
        uint64_t x = mix(&seed);
        nodes[size_t(i)] = new Node{x, sink, nullptr};
        sink += table[((x >> 8) + sink) % slots];
      }
      const double per_new = nsSince(t0, ops);
      // Free in an order unrelated to allocation, as a hash table's
      // destructor walks its buckets.
      for (long i = ops - 1; i > 0; --i) std::swap(nodes[size_t(i)], nodes[mix(&seed) % uint64_t(i + 1)]);
      auto t1 = std::chrono::steady_clock::now();
      for (long i = 0; i < ops; ++i) {
        sink += nodes[size_t(i)]->key;
        delete nodes[size_t(i)];
        sink += table[(mix(&seed) + sink) % slots];
      }
      const double per_delete = nsSince(t1, ops);
      best_new = std::min(best_new, per_new);
      best_delete = std::min(best_delete, per_delete);
      best = std::min(best, per_new + per_delete);
    }
  }
  printf("%s ns_per_op %.1f\n", mode.c_str(), best);
  if (mode == "alloc") printf("alloc new_ns %.1f delete_ns %.1f\n", best_new, best_delete);
  fprintf(stderr, "checksum %llu\n", (unsigned long long)sink);
  return 0;
}
