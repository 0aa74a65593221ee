// Particle-in-cell on a periodic 2D mesh with per-cell locks: every step each
// thread deposits its particles' charge into the mesh cells (taking the
// cell's lock), then the threads turn their share of cells into a field, then
// every particle moves in the field of its cell. Stresses: fine-grained
// locking, scattered read-modify-writes of shared cells, mixed private
// (particles) and shared (mesh) data. Planted NUMA issue: the mesh, locks
// included, is constructed by the main thread and updated by all workers.
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>
#include <vector>

#include "bench.h"
#include "spin_barrier.hpp"

namespace {

struct Cell {
  std::mutex lock;
  int64_t charge = 0;  // fixed point, so the sum does not depend on order
  double field_x = 0, field_y = 0;
};

struct Particle {
  double x, y, vx, vy;
  int64_t q;
};

}  // namespace

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "particles", "grid", "steps", nullptr};
  bench_check_args(argc, argv, known);
  const long threads = bench_arg(argc, argv, "threads", 4);
  const long nparticles = bench_arg(argc, argv, "particles", 400000);
  const long g = bench_arg(argc, argv, "grid", 256);
  const long steps = bench_arg(argc, argv, "steps", 28);
  Cell *mesh = new Cell[size_t(g * g)]; // PLANTED: remote_access
  SpinBarrier barrier(threads);
  std::vector<uint64_t> sums(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (long t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<Particle> mine(static_cast<size_t>(nparticles / threads));
      uint64_t seed = 100 + uint64_t(t);
      for (Particle &p : mine) {
        p.x = bench_uniform(&seed) * double(g);
        p.y = bench_uniform(&seed) * double(g);
        p.vx = bench_uniform(&seed) - 0.5;
        p.vy = bench_uniform(&seed) - 0.5;
        p.q = int64_t(bench_mix(&seed) % 5) + 1;
      }
      const long c0 = t * (g * g) / threads, c1 = (t + 1) * (g * g) / threads;
      for (long s = 0; s < steps; ++s) {
        for (const Particle &p : mine) {
          Cell &c = mesh[long(p.y) * g + long(p.x)];
          std::lock_guard<std::mutex> guard(c.lock);
          c.charge += p.q;
        }
        barrier.wait();
        for (long c = c0; c < c1; ++c) {  // field from the charge of the neighbours
          long x = c % g, y = c / g;
          int64_t e = mesh[y * g + (x + 1) % g].charge, w = mesh[y * g + (x + g - 1) % g].charge;
          int64_t n = mesh[((y + 1) % g) * g + x].charge, so = mesh[((y + g - 1) % g) * g + x].charge;
          mesh[c].field_x = double(e - w) * 1e-3;
          mesh[c].field_y = double(n - so) * 1e-3;
        }
        barrier.wait();
        for (long c = c0; c < c1; ++c) mesh[c].charge = 0;
        for (Particle &p : mine) {
          const Cell &c = mesh[long(p.y) * g + long(p.x)];
          p.vx = 0.99 * p.vx + c.field_x;
          p.vy = 0.99 * p.vy + c.field_y;
          p.x = std::fmod(p.x + p.vx + double(g), double(g));
          p.y = std::fmod(p.y + p.vy + double(g), double(g));
          if (p.x >= double(g)) p.x = 0;
          if (p.y >= double(g)) p.y = 0;
        }
        barrier.wait();
      }
      uint64_t sum = 0;
      for (const Particle &p : mine) sum += bench_quant(p.x) + bench_quant(p.y);
      sums[size_t(t)] = sum;
    });
  uint64_t sum = 0;
  for (long t = 0; t < threads; ++t) {
    pool[size_t(t)].join();
    sum += sums[size_t(t)];
  }
  delete[] mesh;
  printf("checksum: %llu\n", (unsigned long long)sum);
  return 0;
}
