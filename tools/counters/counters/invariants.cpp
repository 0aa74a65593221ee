#include "counters/invariants.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "counters/error.h"

namespace numaperf::counters {

using nlohmann::json;

std::string canonicalEventName(const std::string& name) {
  std::string s;
  s.reserve(name.size());
  for (char c : name) s += c == ':' ? '.' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

namespace {

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
  throw CountersError("invariant file " + origin + ": " + what);
}

Term parseTerm(const json& j, const std::string& origin, const std::string& where) {
  Term t;
  if (j.is_string()) {
    t.event = canonicalEventName(j.get<std::string>());
  } else if (j.is_object() && j.contains("event") && j["event"].is_string()) {
    t.event = canonicalEventName(j["event"].get<std::string>());
    if (j.contains("coef")) {
      if (!j["coef"].is_number()) bad(origin, where + ": \"coef\" must be a number");
      t.coef = j["coef"].get<double>();
    }
  } else {
    bad(origin, where + ": a term is an event name or {\"event\": NAME, \"coef\": NUMBER}");
  }
  if (t.event.empty()) bad(origin, where + ": empty event name");
  if (!std::isfinite(t.coef) || t.coef == 0) bad(origin, where + ": \"coef\" must be finite and non-zero");
  return t;
}

std::vector<int> intList(const json& j, const char* key, const std::string& origin) {
  std::vector<int> v;
  if (!j.contains(key)) return v;
  if (!j[key].is_array()) bad(origin, std::string("\"") + key + "\" must be a list of integers");
  for (const auto& x : j[key]) {
    if (!x.is_number_integer()) bad(origin, std::string("\"") + key + "\" must be a list of integers");
    v.push_back(x.get<int>());
  }
  return v;
}

}  // namespace

Family parseFamily(const json& doc, const std::string& origin) {
  if (!doc.is_object()) bad(origin, "not a JSON object");
  if (doc.value("format", "") != "numaperf-invariants") bad(origin, "\"format\" is not \"numaperf-invariants\"");
  if (doc.value("version", 0) != 1) bad(origin, "unsupported \"version\" (want 1)");
  Family f;
  f.origin = origin;
  if (!doc.contains("family") || !doc["family"].is_string()) bad(origin, "missing \"family\" name");
  f.name = doc["family"].get<std::string>();
  f.description = doc.value("description", "");
  if (doc.contains("match")) {
    const json& m = doc["match"];
    if (!m.is_object()) bad(origin, "\"match\" must be an object");
    f.vendor = m.value("vendor", "");
    f.cpuFamilies = intList(m, "cpu_family", origin);
    f.models = intList(m, "models", origin);
    f.always = m.value("always", false);
  }
  if (doc.contains("pmu")) {
    const json& p = doc["pmu"];
    if (!p.is_object()) bad(origin, "\"pmu\" must be an object");
    f.programmable = p.value("programmable", 0);
    if (f.programmable < 0) bad(origin, "\"programmable\" must be >= 0");
    for (const auto& e : p.value("fixed", json::array())) {
      if (!e.is_string()) bad(origin, "\"fixed\" must list event names");
      f.fixed.push_back(canonicalEventName(e.get<std::string>()));
    }
    if (p.contains("constraints")) {
      if (!p["constraints"].is_object()) bad(origin, "\"constraints\" must map events to counter lists");
      for (const auto& [ev, list] : p["constraints"].items()) {
        json wrap = {{"c", list}};
        f.constraints[canonicalEventName(ev)] = intList(wrap, "c", origin);
      }
    }
  }
  if (!doc.contains("invariants") || !doc["invariants"].is_array()) bad(origin, "missing \"invariants\" list");
  for (const auto& ij : doc["invariants"]) {
    if (!ij.is_object()) bad(origin, "an invariant must be an object");
    Invariant inv;
    inv.name = ij.value("name", "");
    if (inv.name.empty()) bad(origin, "an invariant has no \"name\"");
    std::string where = "invariant \"" + inv.name + "\"";
    if (!ij.contains("total") || !ij.contains("parts") || !ij["parts"].is_array() || ij["parts"].empty())
      bad(origin, where + ": needs \"total\" and a non-empty \"parts\" list");
    // total = sum(parts)  <=>  total - sum(parts) = 0
    inv.terms.push_back(parseTerm(ij["total"], origin, where));
    for (const auto& p : ij["parts"]) {
      Term t = parseTerm(p, origin, where);
      t.coef = -t.coef;
      inv.terms.push_back(t);
    }
    for (size_t a = 0; a < inv.terms.size(); ++a)
      for (size_t b = a + 1; b < inv.terms.size(); ++b)
        if (inv.terms[a].event == inv.terms[b].event) bad(origin, where + ": event " + inv.terms[a].event + " appears twice");
    if (ij.contains("tolerance")) {
      if (!ij["tolerance"].is_number() || ij["tolerance"].get<double>() < 0)
        bad(origin, where + ": \"tolerance\" must be a number >= 0");
      inv.tolerance = ij["tolerance"].get<double>();
    }
    f.invariants.push_back(std::move(inv));
  }
  return f;
}

Family loadFamilyFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CountersError("cannot read invariant file " + path);
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded()) throw CountersError("invariant file " + path + ": not valid JSON");
  return parseFamily(doc, path);
}

std::vector<Family> loadFamilyDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw CountersError("invariant directory " + dir + " does not exist");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Family> out;
  for (const auto& f : files) out.push_back(loadFamilyFile(f));
  return out;
}

std::vector<Family> familiesFor(const std::vector<Family>& all, const std::string& vendor, int cpuFamily,
                                int model) {
  std::vector<Family> out;
  for (const auto& f : all) {
    bool match = f.always;
    if (!match && !f.vendor.empty() && f.vendor == vendor) {
      bool fam = f.cpuFamilies.empty() ||
                 std::find(f.cpuFamilies.begin(), f.cpuFamilies.end(), cpuFamily) != f.cpuFamilies.end();
      bool mod = f.models.empty() || std::find(f.models.begin(), f.models.end(), model) != f.models.end();
      match = fam && mod;
    }
    if (match) out.push_back(f);
  }
  return out;
}

LinearSystem restrictTo(const std::vector<Invariant>& invariants, const std::vector<std::string>& events) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < events.size(); ++i) index.emplace(canonicalEventName(events[i]), i);
  LinearSystem sys;
  for (const auto& inv : invariants) {
    std::vector<double> row(events.size(), 0.0);
    bool all = true;
    for (const auto& t : inv.terms) {
      auto it = index.find(t.event);
      if (it == index.end()) {
        all = false;
        break;
      }
      row[it->second] += t.coef;
    }
    if (!all) continue;
    sys.rows.push_back(std::move(row));
    sys.tolerance.push_back(inv.tolerance);
    sys.names.push_back(inv.name);
  }
  return sys;
}

std::vector<std::vector<int>> invariantNeighbours(const LinearSystem& sys, size_t events) {
  std::vector<std::vector<int>> nb(events);
  for (const auto& row : sys.rows)
    for (size_t a = 0; a < events; ++a) {
      if (row[a] == 0) continue;
      for (size_t b = 0; b < events; ++b)
        if (b != a && row[b] != 0 && std::find(nb[a].begin(), nb[a].end(), static_cast<int>(b)) == nb[a].end())
          nb[a].push_back(static_cast<int>(b));
    }
  return nb;
}

double rowResidual(const std::vector<double>& row, const std::vector<double>& values) {
  double s = 0;
  for (size_t i = 0; i < row.size() && i < values.size(); ++i) s += row[i] * values[i];
  return s;
}

}  // namespace numaperf::counters
