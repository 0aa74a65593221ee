#include "probe/calibration.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>

namespace numaperf::probe {

using nlohmann::json;

void NodeMatrix::reset(const std::vector<unsigned>& rows, const std::vector<unsigned>& cols) {
  cpuNodes = rows;
  memNodes = cols;
  values.assign(rows.size(), std::vector<std::optional<double>>(cols.size()));
}

std::optional<double> NodeMatrix::at(unsigned c, unsigned m) const {
  for (size_t i = 0; i < cpuNodes.size(); ++i)
    if (cpuNodes[i] == c)
      for (size_t j = 0; j < memNodes.size(); ++j)
        if (memNodes[j] == m && i < values.size() && j < values[i].size()) return values[i][j];
  return std::nullopt;
}

void NodeMatrix::set(unsigned c, unsigned m, double v) {
  for (size_t i = 0; i < cpuNodes.size(); ++i)
    if (cpuNodes[i] == c)
      for (size_t j = 0; j < memNodes.size(); ++j)
        if (memNodes[j] == m) values[i][j] = v;
}

TopologySummary summarize(const Topology& t) {
  TopologySummary s;
  s.source = t.source;
  s.packages = t.packages;
  s.pus = static_cast<unsigned>(t.pus.size());
  s.allowedPus = t.puList();
  for (const auto& n : t.nodes) s.nodes.push_back({n.os, n.memoryBytes, n.pus.empty() ? "" : formatList(n.pus)});
  if (!t.pus.empty()) s.caches = t.pus.front().caches;
  s.distances = t.distances;
  return s;
}

std::optional<double> Calibration::remoteExtraNs(unsigned c, unsigned m) const {
  auto remote = idleLatencyNs.at(c, m);
  auto local = idleLatencyNs.at(c, c);
  if (!remote || !local) return std::nullopt;
  return *remote - *local;
}

namespace {
std::optional<double> meanWhere(const NodeMatrix& mx, bool local) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < mx.cpuNodes.size(); ++i)
    for (size_t j = 0; j < mx.memNodes.size(); ++j)
      if ((mx.cpuNodes[i] == mx.memNodes[j]) == local && mx.values[i][j]) sum += *mx.values[i][j], ++n;
  if (!n) return std::nullopt;
  return sum / double(n);
}

json matrixJson(const NodeMatrix& m) {
  if (m.values.empty()) return nullptr;  // not measured at all
  json rows = json::array();
  for (const auto& r : m.values) {
    json row = json::array();
    for (const auto& v : r) row.push_back(v ? json(*v) : json(nullptr));
    rows.push_back(row);
  }
  return rows;
}

NodeMatrix matrixFrom(const json& j, const std::vector<unsigned>& rows, const std::vector<unsigned>& cols,
                      const char* name) {
  NodeMatrix m;
  m.reset(rows, cols);
  if (j.is_null()) return m;
  if (!j.is_array() || j.size() != rows.size())
    throw CalibrationError(std::string("matrix '") + name + "' does not have one row per CPU node");
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!j[i].is_array() || j[i].size() != cols.size())
      throw CalibrationError(std::string("matrix '") + name + "' row " + std::to_string(i) +
                             " does not have one value per memory node");
    for (size_t k = 0; k < cols.size(); ++k) {
      if (j[i][k].is_number()) m.values[i][k] = j[i][k].get<double>();
      else if (!j[i][k].is_null())
        throw CalibrationError(std::string("matrix '") + name + "' holds a value that is neither a number nor null");
    }
  }
  return m;
}
}  // namespace

std::optional<double> Calibration::meanLocalNs() const { return meanWhere(idleLatencyNs, true); }
std::optional<double> Calibration::meanRemoteNs() const { return meanWhere(idleLatencyNs, false); }

json toJson(const Calibration& c) {
  json j;
  j["format"] = "numaperf-calibration";
  j["version"] = c.version;
  j["date"] = c.date;
  j["host"] = c.host;
  j["tool"] = c.tool;
  json t;
  t["source"] = c.topology.source;
  t["packages"] = c.topology.packages;
  t["pus"] = c.topology.pus;
  t["allowed_pus"] = c.topology.allowedPus;
  t["nodes"] = json::array();
  for (const auto& n : c.topology.nodes)
    t["nodes"].push_back({{"node", n.os}, {"memory_bytes", n.memoryBytes}, {"pus", n.pus}});
  t["caches"] = json::array();
  for (const auto& k : c.topology.caches)
    t["caches"].push_back({{"level", k.level}, {"size_bytes", k.sizeBytes}, {"line_bytes", k.lineBytes},
                           {"shared_by_pus", k.sharingPus}});
  t["distances"] = c.topology.distances.empty() ? json(nullptr) : json(c.topology.distances);
  j["topology"] = t;
  j["cpu_nodes"] = c.idleLatencyNs.cpuNodes;
  j["memory_nodes"] = c.idleLatencyNs.memNodes;
  j["latency_ns"] = {{"idle", matrixJson(c.idleLatencyNs)},
                     {"loaded_spread", matrixJson(c.loadedSpreadNs)},
                     {"loaded_overload", matrixJson(c.loadedOverloadNs)}};
  j["bandwidth_gbps"] = {
      {"read", matrixJson(c.readGBps)}, {"write", matrixJson(c.writeGBps)}, {"mixed", matrixJson(c.mixedGBps)}};
  auto loc = c.meanLocalNs(), rem = c.meanRemoteNs();
  j["summary"] = {{"local_latency_ns", loc ? json(*loc) : json(nullptr)},
                  {"remote_latency_ns", rem ? json(*rem) : json(nullptr)},
                  {"remote_extra_ns", loc && rem ? json(*rem - *loc) : json(nullptr)}};
  j["notes"] = c.notes;
  return j;
}

Calibration calibrationFromJson(const json& j) {
  try {
    if (!j.is_object() || j.value("format", "") != "numaperf-calibration")
      throw CalibrationError("not a numaperf calibration file (\"format\" is not \"numaperf-calibration\")");
    Calibration c;
    c.version = j.at("version").get<int>();
    if (c.version < 1 || c.version > Calibration::kVersion)
      throw CalibrationError("calibration version " + std::to_string(c.version) + " is not supported (this reader: 1-" +
                             std::to_string(Calibration::kVersion) + ")");
    c.date = j.value("date", "");
    c.host = j.value("host", "");
    c.tool = j.value("tool", "");
    if (j.contains("topology") && j["topology"].is_object()) {
      const json& t = j["topology"];
      c.topology.source = t.value("source", "");
      c.topology.packages = t.value("packages", 0u);
      c.topology.pus = t.value("pus", 0u);
      c.topology.allowedPus = t.value("allowed_pus", "");
      for (const auto& n : t.value("nodes", json::array()))
        c.topology.nodes.push_back({n.at("node").get<unsigned>(), n.value("memory_bytes", uint64_t(0)), n.value("pus", "")});
      for (const auto& k : t.value("caches", json::array())) {
        CacheInfo ci;
        ci.level = k.at("level").get<int>();
        ci.sizeBytes = k.at("size_bytes").get<uint64_t>();
        ci.lineBytes = k.value("line_bytes", 64u);
        ci.sharingPus = k.value("shared_by_pus", 1u);
        c.topology.caches.push_back(ci);
      }
      if (t.contains("distances") && t["distances"].is_array())
        c.topology.distances = t["distances"].get<std::vector<std::vector<uint64_t>>>();
    }
    auto rows = j.at("cpu_nodes").get<std::vector<unsigned>>();
    auto cols = j.at("memory_nodes").get<std::vector<unsigned>>();
    const json& lat = j.at("latency_ns");
    const json& bw = j.value("bandwidth_gbps", json::object());
    c.idleLatencyNs = matrixFrom(lat.at("idle"), rows, cols, "latency_ns.idle");
    c.loadedSpreadNs = matrixFrom(lat.value("loaded_spread", json()), rows, cols, "latency_ns.loaded_spread");
    c.loadedOverloadNs = matrixFrom(lat.value("loaded_overload", json()), rows, cols, "latency_ns.loaded_overload");
    c.readGBps = matrixFrom(bw.value("read", json()), rows, cols, "bandwidth_gbps.read");
    c.writeGBps = matrixFrom(bw.value("write", json()), rows, cols, "bandwidth_gbps.write");
    c.mixedGBps = matrixFrom(bw.value("mixed", json()), rows, cols, "bandwidth_gbps.mixed");
    c.notes = j.value("notes", std::vector<std::string>{});
    return c;
  } catch (const json::exception& e) {
    throw CalibrationError(std::string("malformed calibration file: ") + e.what());
  }
}

void writeCalibration(const std::string& path, const Calibration& c) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw CalibrationError("cannot write " + tmp);
    out << toJson(c).dump(2) << "\n";
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw CalibrationError("cannot write " + tmp);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw CalibrationError("cannot rename " + tmp + " to " + path);
  }
}

Calibration readCalibration(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CalibrationError("cannot open calibration file " + path);
  json j;
  try {
    in >> j;
  } catch (const json::exception& e) {
    throw CalibrationError(path + " is not JSON: " + e.what());
  }
  return calibrationFromJson(j);
}

std::string isoDateUtc() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string hostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace numaperf::probe
