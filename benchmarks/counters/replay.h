// Replay of a trace recorded with `perf stat -I MS -x, -e ...` on a real
// host: each perf interval becomes a slice (its count unscaled with the
// printed running share), W consecutive slices one estimation window. There
// is no truth on a real host, so the replay prints the plain and corrected
// totals with their intervals, and how far plain scaling breaks the
// invariants (the corrected values keep the exact ones).
#pragma once
#include <string>

#include "synthetic.h"

namespace numaperf::counters::bench {

struct PerfStatTrace {
  std::vector<std::string> events;
  std::vector<std::vector<Reading>> slices;  // [event][perf interval]
};

// Throws CountersError naming the line on malformed input.
PerfStatTrace parsePerfStat(const std::string& path);

// Prints the report; `invariants` is a family file or a directory of them.
int runReplay(const std::string& path, int window, double level, const std::string& invariants);

// A synthetic trace in perf's format (5 slices per printed interval), with
// its invariants next to it in PATH.invariants.json, for tests and demos.
void writePerfStat(const Trace& t, const std::string& path);

}  // namespace numaperf::counters::bench
