#include "replay.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "counters/error.h"

namespace numaperf::counters::bench {

namespace {

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string x;
  while (std::getline(ss, x, ',')) f.push_back(x);
  if (!line.empty() && line.back() == ',') f.push_back("");
  return f;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

PerfStatTrace parsePerfStat(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CountersError("cannot read " + path);
  PerfStatTrace t;
  std::map<std::string, size_t> index;
  std::vector<std::string> times;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    auto f = splitCsv(line);
    auto where = path + ":" + std::to_string(lineNo);
    // time,count,unit,event,run_time,pct_running[,metric,metric_unit]
    if (f.size() < 6) throw CountersError(where + ": not `perf stat -I MS -x,` output (want time,count,unit,event,run,pct)");
    std::string time = trim(f[0]), count = trim(f[1]), event = trim(f[3]);
    char* end = nullptr;
    std::strtod(time.c_str(), &end);
    if (time.empty() || *end) throw CountersError(where + ": first field is not a time stamp (was -I given?)");
    if (times.empty() || times.back() != time) times.push_back(time);
    if (!index.count(event)) {
      index[event] = t.events.size();
      t.events.push_back(event);
      t.slices.emplace_back();
    }
    auto& s = t.slices[index[event]];
    s.resize(times.size() - 1);
    Reading r;
    double run = std::strtod(trim(f[4]).c_str(), nullptr);
    double pct = std::strtod(trim(f[5]).c_str(), nullptr);
    if (count.rfind("<not", 0) != 0 && pct > 0) {
      double scaled = std::strtod(count.c_str(), &end);
      if (*end) throw CountersError(where + ": count \"" + count + "\" is not a number");
      r.running = run;
      r.enabled = run / (pct / 100);
      r.count = scaled * pct / 100;  // perf prints counts already scaled
    } else {
      r.enabled = 1;  // not counted: only the share matters
    }
    s.push_back(r);
  }
  if (t.events.empty()) throw CountersError(path + ": no counts");
  for (auto& s : t.slices) {
    // Slices must line up: an event missing from an interval was not counted.
    double en = 0;
    for (auto& r : s) en = std::max(en, r.enabled);
    s.resize(times.size(), Reading{0, en > 0 ? en : 1, 0});
  }
  return t;
}

int runReplay(const std::string& path, int window, double level, const std::string& invariants) {
  PerfStatTrace t = parsePerfStat(path);
  std::vector<Invariant> inv;
  std::string companion = path + ".invariants.json";
  if (std::filesystem::exists(companion)) {
    inv = loadFamilyFile(companion).invariants;
  } else {
    for (const auto& f : loadFamilyDir(invariants)) inv.insert(inv.end(), f.invariants.begin(), f.invariants.end());
  }
  LinearSystem sys = restrictTo(inv, t.events);
  Estimator est(t.events, sys, level);
  size_t n = t.events.size(), slices = t.slices[0].size();
  std::printf("replay of %s: %zu events, %zu intervals, windows of %d, %zu invariants apply\n", path.c_str(), n,
              slices, window, sys.size());
  std::vector<double> plainTot(n, 0), corrTot(n, 0), var(n, 0);
  double plainViolation = 0, corrViolation = 0;
  int windows = 0;
  for (size_t w0 = 0; w0 < slices; w0 += window) {
    size_t w1 = std::min(slices, w0 + window);
    std::vector<std::vector<Reading>> r(n);
    for (size_t i = 0; i < n; ++i) r[i].assign(t.slices[i].begin() + w0, t.slices[i].begin() + w1);
    auto e = est.estimate(r);
    std::vector<double> plain(n), corr(n);
    for (size_t i = 0; i < n; ++i) {
      plain[i] = e[i].plain;
      corr[i] = e[i].mean;
      plainTot[i] += e[i].plain;
      corrTot[i] += e[i].mean;
      double half = e[i].hi - e[i].mean;
      var[i] += half * half;  // windows independent: half-widths add in quadrature
    }
    for (size_t k = 0; k < sys.size(); ++k) {
      double scale = 0;
      for (size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(sys.rows[k][i] * plain[i]));
      if (scale <= 0) continue;
      plainViolation += std::fabs(rowResidual(sys.rows[k], plain)) / scale;
      corrViolation += std::fabs(rowResidual(sys.rows[k], corr)) / scale;
    }
    ++windows;
  }
  std::printf("%-40s %16s %16s %14s\n", "event", "plain", "corrected", "+/-");
  for (size_t i = 0; i < n; ++i)
    std::printf("%-40s %16.0f %16.0f %14.0f\n", t.events[i].c_str(), plainTot[i], corrTot[i], std::sqrt(var[i]));
  if (sys.size())
    std::printf("mean invariant violation per window: plain %.2f%%, corrected %.2f%%\n",
                100 * plainViolation / (windows * sys.size()), 100 * corrViolation / (windows * sys.size()));
  return 0;
}

void writePerfStat(const Trace& t, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw CountersError("cannot write " + path);
  const int per = 5;
  size_t n = t.names.size();
  out << "# synthetic trace in the format of `perf stat -I 20 -x, -e ...` (counters-harness --write-perf-stat)\n";
  int line = 0;
  for (size_t iv = 0; iv < t.readings.size(); ++iv) {
    size_t slices = t.readings[iv][0].size();
    for (size_t s0 = 0; s0 < slices; s0 += per, ++line) {
      double time = 0.02 * (line + 1);
      for (size_t i = 0; i < n; ++i) {
        double c = 0, en = 0, run = 0;
        for (size_t s = s0; s < std::min(slices, s0 + per); ++s) {
          c += t.readings[iv][i][s].count;
          en += t.readings[iv][i][s].enabled;
          run += t.readings[iv][i][s].running;
        }
        char buf[256];
        if (run > 0)
          std::snprintf(buf, sizeof buf, "%14.9f,%.0f,,%s,%.0f,%.2f,,\n", time, c * en / run, t.names[i].c_str(), run,
                        100 * run / en);
        else
          std::snprintf(buf, sizeof buf, "%14.9f,<not counted>,,%s,0,0.00,,\n", time, t.names[i].c_str());
        out << buf;
      }
    }
  }
  nlohmann::json inv = {{"format", "numaperf-invariants"}, {"version", 1}, {"family", "synthetic"},
                        {"invariants", nlohmann::json::array()}};
  for (const auto& v : t.invariants) {
    nlohmann::json parts = nlohmann::json::array();
    for (size_t k = 1; k < v.terms.size(); ++k) parts.push_back(v.terms[k].event);
    inv["invariants"].push_back({{"name", v.name}, {"total", v.terms[0].event}, {"parts", parts}});
  }
  std::ofstream(path + ".invariants.json") << inv.dump(1) << "\n";
}

}  // namespace numaperf::counters::bench
