// Monte Carlo pricing of an arithmetic Asian option: every path is simulated
// into a small heap vector (allocated per path), and the generator state and
// the per-thread statistics live on the heap too, so the inner loops are
// dominated by small heap loads and stores. Stresses: the known worst case
// for per-access instrumentation (a hook per load/store on tiny arrays).
// No planted NUMA issue: every heap object is private to its thread.
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "bench.h"

namespace {

struct Rng {
  uint64_t state;
  bool have_spare = false;
  double spare = 0;
  double normal() {
    if (have_spare) {
      have_spare = false;
      return spare;
    }
    double u, v, s;
    do {
      u = 2 * bench_uniform(&state) - 1;
      v = 2 * bench_uniform(&state) - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double f = std::sqrt(-2 * std::log(s) / s);
    spare = v * f;
    have_spare = true;
    return u * f;
  }
};

struct Stats {
  uint64_t payoff_sum = 0;
  uint64_t paths = 0;
  std::vector<double> step_mean;  // running mean price per time step
};

void simulate(long id, long paths, long steps, Stats *out) {
  auto rng = std::make_unique<Rng>();
  rng->state = 77 + uint64_t(id) * 1315423911u;
  auto stats = std::make_unique<Stats>();
  stats->step_mean.assign(size_t(steps), 0.0);
  const double spot = 100, strike = 100, rate = 0.03, vol = 0.25, years = 1.0;
  const double dt = years / double(steps);
  const double drift = (rate - 0.5 * vol * vol) * dt, diffusion = vol * std::sqrt(dt);
  for (long p = 0; p < paths; ++p) {
    std::vector<double> path(static_cast<size_t>(steps));  // small heap array per path
    double s = spot;
    for (long i = 0; i < steps; ++i) {
      s *= std::exp(drift + diffusion * rng->normal());
      path[size_t(i)] = s;
    }
    double avg = 0;
    for (long i = 0; i < steps; ++i) {
      avg += path[size_t(i)];
      stats->step_mean[size_t(i)] += path[size_t(i)];
    }
    avg /= double(steps);
    double payoff = avg > strike ? (avg - strike) * std::exp(-rate * years) : 0;
    stats->payoff_sum += bench_quant(payoff);
    stats->paths += 1;
  }
  uint64_t mean_q = 0;
  for (double m : stats->step_mean) mean_q += bench_quant(m / double(paths));
  out->payoff_sum = stats->payoff_sum + mean_q;
  out->paths = stats->paths;
}

}  // namespace

int main(int argc, char **argv) {
  static const char *const known[] = {"threads", "paths", "steps", nullptr};
  bench_check_args(argc, argv, known);
  long threads = bench_arg(argc, argv, "threads", 4);
  long paths = bench_arg(argc, argv, "paths", 1000000);
  long steps = bench_arg(argc, argv, "steps", 64);
  std::vector<Stats> results(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (long t = 0; t < threads; ++t)
    pool.emplace_back(simulate, t, paths / threads, steps, &results[size_t(t)]);
  uint64_t sum = 0, n = 0;
  for (long t = 0; t < threads; ++t) {
    pool[size_t(t)].join();
    sum += results[size_t(t)].payoff_sum;
    n += results[size_t(t)].paths;
  }
  printf("checksum: %llu/%llu\n", (unsigned long long)sum, (unsigned long long)n);
  return 0;
}
