#include "counters/report.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace numaperf::counters {

namespace {

// Sums consecutive slices so that at most `maxSlices` remain (the estimator
// is cubic in events, linear in slices).
std::vector<std::vector<Reading>> merged(const std::vector<std::vector<Reading>>& s, size_t from, size_t to,
                                         size_t maxSlices) {
  size_t len = to - from, per = (len + maxSlices - 1) / std::max<size_t>(1, maxSlices);
  if (per == 0) per = 1;
  std::vector<std::vector<Reading>> out(s.size());
  for (size_t i = 0; i < s.size(); ++i)
    for (size_t a = from; a < to; a += per) {
      Reading r;
      for (size_t b = a; b < std::min(to, a + per); ++b) {
        r.count += s[i][b].count;
        r.enabled += s[i][b].enabled;
        r.running += s[i][b].running;
      }
      out[i].push_back(r);
    }
  return out;
}

std::string referenceName(const CountersReport& r, int ref) {
  if (ref == kReferenceTime) return "time";
  if (ref == kReferenceNone) return "invariants";
  return r.run.specs[ref].name;
}

std::string human(double v) {
  char buf[64];
  if (std::fabs(v) < 0.005) return "0";
  if (std::fabs(v) >= 1e15 || (v != 0 && std::fabs(v) < 1e-3)) std::snprintf(buf, sizeof buf, "%.4g", v);
  else std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  // thousands separators in the integer part
  auto dot = s.find('.');
  std::string ip = s.substr(0, dot == std::string::npos ? s.size() : dot);
  if (ip.find('e') != std::string::npos) return s;
  std::string out;
  int k = 0;
  for (size_t j = ip.size(); j-- > 0;) {
    out.insert(out.begin(), ip[j]);
    if (++k % 3 == 0 && j > 0 && ip[j - 1] != '-') out.insert(out.begin(), ',');
  }
  return out + (dot == std::string::npos ? "" : s.substr(dot));
}

nlohmann::json estimateJson(const CountersReport& r, size_t i, const EventEstimate& e) {
  double sc = r.run.specs[i].scale;
  if (!e.available) return {{"event", r.run.specs[i].name}, {"available", false}, {"counted", e.counted}};
  return {{"event", r.run.specs[i].name}, {"value", e.mean * sc}, {"lo", e.lo * sc}, {"hi", e.hi * sc},
          {"plain", e.plain * sc},       {"counted", e.counted}, {"reference", referenceName(r, e.reference)}};
}

}  // namespace

CountersReport estimateRun(RunResult run, const std::vector<Invariant>& invariants, double intervalMs, double level,
                           std::vector<std::string> argv) {
  CountersReport r;
  r.argv = std::move(argv);
  r.level = level;
  r.run = std::move(run);
  std::vector<std::string> names;
  for (const auto& e : r.run.specs) names.push_back(e.name);
  Estimator est(names, restrictTo(invariants, names), level);
  size_t slices = r.run.sliceEnd.size();
  if (intervalMs > 0) {
    size_t from = 0;
    double next = intervalMs / 1000;
    for (size_t s = 0; s < slices; ++s)
      if (r.run.sliceEnd[s] >= next - 1e-9 || s + 1 == slices) {
        r.intervals.push_back(est.estimate(merged(r.run.slices, from, s + 1, 64)));
        r.intervalEnd.push_back(r.run.sliceEnd[s]);
        from = s + 1;
        while (next <= r.run.sliceEnd[s] + 1e-9) next += intervalMs / 1000;
      }
  }
  r.totals = est.estimate(merged(r.run.slices, 0, slices, 256), false);
  return r;
}

void printText(const CountersReport& r, std::ostream& out) {
  char buf[512];
  for (size_t t = 0; t < r.intervals.size(); ++t)
    for (size_t i = 0; i < r.run.specs.size(); ++i) {
      const auto& e = r.intervals[t][i];
      double sc = r.run.specs[i].scale;
      if (!e.available)
        std::snprintf(buf, sizeof buf, "%10.3f  %22s  %16s  %6s  %s\n", r.intervalEnd[t], "<not counted>", "", "",
                      r.run.specs[i].name.c_str());
      else
        std::snprintf(buf, sizeof buf, "%10.3f  %22s  +- %-13s  %5.1f%%  %s\n", r.intervalEnd[t],
                      human(e.mean * sc).c_str(), human((e.hi - e.mean) * sc).c_str(), 100 * e.counted,
                      r.run.specs[i].name.c_str());
      out << buf;
    }
  std::snprintf(buf, sizeof buf, "\n numaperf counters for '%s' (exit status %d), %.3f s, %zu configuration%s\n\n",
                r.argv.empty() ? "" : r.argv[0].c_str(), r.run.exitStatus, r.run.elapsed, r.run.schedule.size(),
                r.run.schedule.size() == 1 ? "" : "s");
  out << buf;
  std::snprintf(buf, sizeof buf, " %22s  %-17s %7s  %s\n", "value", (" +-" + std::to_string(int(r.level * 100 + 0.5)) + "%").c_str(),
                "counted", "event");
  out << buf;
  for (size_t i = 0; i < r.run.specs.size(); ++i) {
    const auto& e = r.totals[i];
    const auto& s = r.run.specs[i];
    std::string unit = s.unit.empty() ? "" : " (" + s.unit + ")";
    if (!e.available) {
      std::snprintf(buf, sizeof buf, " %22s  %-17s %7s  %s\n", "<not counted>", "", "", s.name.c_str());
    } else {
      std::string via = e.reference >= 0 || e.reference == kReferenceNone ? "  [via " + referenceName(r, e.reference) + "]" : "";
      std::snprintf(buf, sizeof buf, " %22s  +- %-14s %6.1f%%  %s%s%s\n", human(e.mean * s.scale).c_str(),
                    human((e.hi - e.mean) * s.scale).c_str(), 100 * e.counted, s.name.c_str(), unit.c_str(), via.c_str());
    }
    out << buf;
  }
}

std::string toJson(const CountersReport& r) {
  using nlohmann::json;
  json j;
  j["format"] = "numaperf-counters";
  j["version"] = 1;
  j["command"] = r.argv;
  j["exit_status"] = r.run.exitStatus;
  j["elapsed_s"] = r.run.elapsed;
  j["level"] = r.level;
  j["unavailable"] = json::array();
  for (const auto& u : r.run.unavailable) j["unavailable"].push_back({{"event", u.event}, {"reason", u.reason}});
  j["schedule"] = json::array();
  for (const auto& c : r.run.schedule) {
    json cfg = json::array();
    for (int i : c.events) cfg.push_back(r.run.specs[i].name);
    j["schedule"].push_back(cfg);
  }
  j["events"] = json::array();
  for (size_t i = 0; i < r.run.specs.size(); ++i) {
    json e = estimateJson(r, i, r.totals[i]);
    e["pmu"] = r.run.specs[i].pmu;
    e["unit"] = r.run.specs[i].unit;
    j["events"].push_back(e);
  }
  j["intervals"] = json::array();
  for (size_t t = 0; t < r.intervals.size(); ++t) {
    json vals = json::array();
    for (size_t i = 0; i < r.run.specs.size(); ++i) vals.push_back(estimateJson(r, i, r.intervals[t][i]));
    j["intervals"].push_back({{"end_s", r.intervalEnd[t]}, {"events", vals}});
  }
  return j.dump(1) + "\n";
}

}  // namespace numaperf::counters
