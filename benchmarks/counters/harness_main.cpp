// counters-harness: evaluation of the multiplexing correction (issue 7).
//   counters-harness [--quick] [--seeds N] [--level L] [--per-event] [--check]
//   counters-harness --replay FILE [--window W] [--level L]
//   counters-harness --write-perf-stat FILE [--events N] [--seeds S]
// The synthetic suite runs 10..35 events (fixed ones included) and prints,
// per size, the mean error of plain time_enabled/time_running scaling and of
// the corrected estimate, and the coverage of the intervals. --check exits 1
// unless the corrected error is at least 4x lower on average and the
// coverage is within 0.1 of the level (issue 7 acceptance; docs/counters.md).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "counters/error.h"
#include "evaluate.h"
#include "replay.h"

using namespace numaperf::counters;
using namespace numaperf::counters::bench;

namespace {

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr, "counters-harness: error: %s\n", msg);
  std::exit(2);
}

double number(const char* s, const char* what) {
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (!end || *end || !std::isfinite(v)) usage((std::string("bad value for ") + what).c_str());
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, perEvent = false, check = false;
  int seeds = 5, window = 5, events = 20;
  double level = 0.95;
  std::string replay, writeFile;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](const char* what) {
      if (i + 1 >= argc) usage((std::string(what) + " needs a value").c_str());
      return argv[++i];
    };
    if (a == "--quick") quick = true;
    else if (a == "--per-event") perEvent = true;
    else if (a == "--check") check = true;
    else if (a == "--seeds") seeds = static_cast<int>(number(val("--seeds"), "--seeds"));
    else if (a == "--level") level = number(val("--level"), "--level");
    else if (a == "--window") window = static_cast<int>(number(val("--window"), "--window"));
    else if (a == "--events") events = static_cast<int>(number(val("--events"), "--events"));
    else if (a == "--replay") replay = val("--replay");
    else if (a == "--write-perf-stat") writeFile = val("--write-perf-stat");
    else usage(("unknown option " + a).c_str());
  }
  if (!(level > 0 && level < 1)) usage("--level must be in (0, 1)");
  if (seeds < 1 || window < 2 || events < 3) usage("--seeds >= 1, --window >= 2, --events >= 3");

  try {
    if (!replay.empty()) return runReplay(replay, window, level, NUMAPERF_INVARIANTS_DIR);
    if (!writeFile.empty()) {
      SyntheticSpec spec;
      spec.events = events;
      spec.seed = static_cast<uint64_t>(seeds);
      spec.intervals = 12;
      writePerfStat(makeTrace(spec), writeFile);
      return 0;
    }
  } catch (const CountersError& e) {
    std::fprintf(stderr, "counters-harness: error: %s\n", e.what());
    return 2;
  }

  if (quick) seeds = std::min(seeds, 2);
  std::printf("%-7s %-8s %-12s %-12s %-9s %-9s\n", "events", "configs", "plain_err%", "corrected%", "ratio", "coverage");
  double sumPlain = 0, sumCorr = 0, sumCov = 0;
  int runs = 0;
  for (int n = 10; n <= 35; n += 5) {
    double p = 0, c = 0, cov = 0;
    size_t configs = 0;
    for (int sd = 1; sd <= seeds; ++sd) {
      SyntheticSpec spec;
      spec.events = n;
      spec.seed = static_cast<uint64_t>(1000 * n + sd);
      if (quick) spec.intervals = 20;
      Trace t = makeTrace(spec);
      Score s = evaluate(t, level);
      configs = t.schedule.size();
      p += s.plainError;
      c += s.correctedError;
      cov += s.coverage;
      if (perEvent && sd == 1) {
        std::printf("  events of the %d-event suite (seed 1): name plain%% corrected%%\n", n);
        for (size_t i = 0; i < t.names.size(); ++i)
          if (!t.fixed[i])
            std::printf("    %-14s %7.2f %7.2f\n", t.names[i].c_str(), 100 * s.plainPerEvent[i],
                        100 * s.correctedPerEvent[i]);
      }
    }
    p /= seeds;
    c /= seeds;
    cov /= seeds;
    std::printf("%-7d %-8zu %-12.2f %-12.2f %-9.2f %-9.3f\n", n, configs, 100 * p, 100 * c, c > 0 ? p / c : 0, cov);
    sumPlain += p;
    sumCorr += c;
    sumCov += cov;
    ++runs;
  }
  double mp = sumPlain / runs, mc = sumCorr / runs, mcov = sumCov / runs;
  std::printf("average plain error %.2f%%, corrected %.2f%% (%.2fx lower), coverage %.3f at level %.2f\n", 100 * mp,
              100 * mc, mp / mc, mcov, level);
  if (check) {
    bool ok = mp >= 4 * mc && std::fabs(mcov - level) <= 0.1;
    if (!ok) std::printf("FAIL: wanted corrected error >= 4x lower and coverage within 0.1 of the level\n");
    return ok ? 0 : 1;
  }
  return 0;
}
