#include "counters/sysfs_pmu.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "counters/error.h"

namespace numaperf::counters {

namespace fs = std::filesystem;

namespace {

std::string readLine(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

PmuKind kindOf(const std::string& n) {
  if (n == "cpu" || n == "cpu_core" || n == "cpu_atom" || n.rfind("armv8", 0) == 0) return PmuKind::Core;
  if (n == "software" || n == "tracepoint" || n == "breakpoint" || n == "kprobe" || n == "uprobe")
    return PmuKind::Software;
  if (n.rfind("uncore_imc", 0) == 0 || n.rfind("amd_umc", 0) == 0 || n.rfind("arm_cmn", 0) == 0)
    return PmuKind::MemoryController;
  if (n.rfind("amd_df", 0) == 0) return PmuKind::DataFabric;
  return PmuKind::Other;
}

}  // namespace

const char* kindName(PmuKind k) {
  switch (k) {
    case PmuKind::Core: return "core";
    case PmuKind::Software: return "software";
    case PmuKind::MemoryController: return "memory-controller";
    case PmuKind::DataFabric: return "data-fabric";
    default: return "other";
  }
}

std::vector<int> parseCpuList(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    auto dash = part.find('-');
    int a = std::atoi(part.substr(0, dash).c_str());
    int b = dash == std::string::npos ? a : std::atoi(part.substr(dash + 1).c_str());
    for (int c = a; c <= b; ++c) out.push_back(c);
  }
  return out;
}

std::vector<Pmu> discoverPmus(const std::string& root) {
  std::vector<Pmu> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (const auto& d : fs::directory_iterator(root, ec)) {
    Pmu p;
    p.name = d.path().filename().string();
    std::string type = readLine(d.path() / "type");
    if (type.empty()) continue;
    p.type = static_cast<uint32_t>(std::strtoul(type.c_str(), nullptr, 10));
    p.kind = kindOf(p.name);
    if (fs::exists(d.path() / "cpumask")) p.cpus = parseCpuList(readLine(d.path() / "cpumask"));
    if (fs::is_directory(d.path() / "format", ec))
      for (const auto& f : fs::directory_iterator(d.path() / "format", ec))
        p.format[f.path().filename().string()] = readLine(f.path());
    if (fs::is_directory(d.path() / "events", ec)) {
      std::map<std::string, PmuEvent> ev;
      for (const auto& f : fs::directory_iterator(d.path() / "events", ec)) {
        std::string n = f.path().filename().string();
        auto dot = n.rfind('.');
        std::string suffix = dot == std::string::npos ? "" : n.substr(dot + 1);
        if (suffix == "scale") {
          ev[n.substr(0, dot)].scale = std::strtod(readLine(f.path()).c_str(), nullptr);
        } else if (suffix == "unit") {
          ev[n.substr(0, dot)].unit = readLine(f.path());
        } else if (suffix == "per-pkg" || suffix == "snapshot") {
          continue;
        } else {
          ev[n].name = n;
          ev[n].terms = readLine(f.path());
        }
      }
      for (auto& [n, e] : ev)
        if (!e.name.empty()) p.events.push_back(e);
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const Pmu& a, const Pmu& b) { return a.name < b.name; });
  return out;
}

Encoding encodeTerms(const Pmu& pmu, const std::string& terms) {
  Encoding enc;
  std::stringstream ss(terms);
  std::string term;
  while (std::getline(ss, term, ',')) {
    if (term.empty()) continue;
    auto eq = term.find('=');
    std::string field = term.substr(0, eq);
    uint64_t value = eq == std::string::npos ? 1 : std::strtoull(term.substr(eq + 1).c_str(), nullptr, 0);
    auto it = pmu.format.find(field);
    if (it == pmu.format.end()) throw CountersError("PMU " + pmu.name + " has no format field \"" + field + "\"");
    // "config:0-7,21" or "config1:0-15": the value's bits go to those ranges in order.
    const std::string& spec = it->second;
    auto colon = spec.find(':');
    std::string reg = spec.substr(0, colon);
    uint64_t* dst = reg == "config1" ? &enc.config1 : reg == "config2" ? &enc.config2 : &enc.config;
    std::stringstream rs(spec.substr(colon + 1));
    std::string range;
    int used = 0;
    while (std::getline(rs, range, ',')) {
      auto dash = range.find('-');
      int lo = std::atoi(range.substr(0, dash).c_str());
      int hi = dash == std::string::npos ? lo : std::atoi(range.substr(dash + 1).c_str());
      for (int b = lo; b <= hi; ++b, ++used)
        if ((value >> used) & 1) *dst |= uint64_t{1} << b;
    }
  }
  return enc;
}

}  // namespace numaperf::counters
