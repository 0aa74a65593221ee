#include "bwmodel/output.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace numaperf::bwmodel {

using nlohmann::json;

double rounded(double v) {
  double r = std::round(v * 1e12) / 1e12;
  return r == 0.0 ? 0.0 : r;  // no -0
}

static json opt(const std::optional<double>& v) { return v ? json(rounded(*v)) : json(nullptr); }

json toJson(const Signature& s) {
  return json{{"static", rounded(s.staticFraction)},
              {"local", rounded(s.localFraction)},
              {"per_thread", rounded(s.perThreadFraction)},
              {"interleaved", rounded(s.interleavedFraction)},
              {"static_socket", s.staticSocket}};
}

json toJson(const Matrix& m) {
  json rows = json::array();
  for (const auto& r : m) {
    json row = json::array();
    for (double v : r) row.push_back(rounded(v));
    rows.push_back(row);
  }
  return rows;
}

json toJson(const Prediction& p) {
  json sockets = json::array();
  for (size_t i = 0; i < p.machine.sockets.size(); ++i) {
    const auto& s = p.machine.sockets[i];
    sockets.push_back({{"socket", i},
                       {"node", s.node},
                       {"pus", s.pus ? json(*s.pus) : json(nullptr)},
                       {"threads", p.placement[i]}});
  }
  json j;
  j["format"] = "numaperf-bwmodel";
  j["version"] = 1;
  j["topology"] = {{"source", p.machine.source}, {"sockets", sockets}, {"memory_only_nodes", p.machine.memoryOnlyNodes}};
  j["placement"] = p.placement;
  j["threads"] = totalThreads(p.placement);
  j["read"] = {{"signature", toJson(p.read)}, {"matrix", toJson(p.readMatrix)}};
  j["write"] = {{"signature", toJson(p.write)}, {"matrix", toJson(p.writeMatrix)}};
  j["matrix"] = p.read == p.write ? toJson(p.readMatrix) : json(nullptr);
  if (p.load) {
    const auto& l = *p.load;
    json links = json::array(), banks = json::array();
    for (const auto& k : l.links)
      links.push_back({{"cpu_socket", k.cpuSocket},
                       {"memory_socket", k.memSocket},
                       {"read_gbps", rounded(k.readGBps)},
                       {"write_gbps", rounded(k.writeGBps)},
                       {"total_gbps", rounded(k.totalGBps())},
                       {"read_capacity_gbps", opt(k.readCapacityGBps)},
                       {"write_capacity_gbps", opt(k.writeCapacityGBps)},
                       {"utilisation", opt(k.utilisation)},
                       {"saturated", k.saturated}});
    for (const auto& b : l.banks)
      banks.push_back({{"socket", b.socket},
                       {"read_gbps", rounded(b.readGBps)},
                       {"write_gbps", rounded(b.writeGBps)},
                       {"total_gbps", rounded(b.totalGBps())},
                       {"read_capacity_gbps", opt(b.readCapacityGBps)},
                       {"write_capacity_gbps", opt(b.writeCapacityGBps)},
                       {"utilisation", opt(b.utilisation)},
                       {"saturated", b.saturated}});
    json sat = json::array();
    for (const auto& k : l.links)
      if (k.saturated) sat.push_back(json::array({k.cpuSocket, k.memSocket}));
    j["load"] = {{"thread_read_gbps", rounded(l.threadReadGBps)},
                 {"thread_write_gbps", rounded(l.threadWriteGBps)},
                 {"calibration", p.calibrationSource.empty() ? json(nullptr) : json(p.calibrationSource)},
                 {"links", links},
                 {"banks", banks},
                 {"saturated_links", sat},
                 {"notes", l.notes}};
  }
  return j;
}

static json fitJson(const Fit& f) {
  return {{"signature", toJson(f.signature)},
          {"residual", rounded(f.residual)},
          {"max_deviation", rounded(f.maxDeviation)},
          {"cells", f.cells}};
}

json toJson(const FitResult& f) {
  return {{"format", "numaperf-bwmodel-fit"}, {"version", 1}, {"runs", f.runs},
          {"read", fitJson(f.read)}, {"write", fitJson(f.write)}};
}

namespace {

std::string num(double v, int prec = 3) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, rounded(v));
  return b;
}

std::string sigLine(const Signature& s) {
  std::ostringstream o;
  o << "static " << num(s.staticFraction) << " (socket " << s.staticSocket << "), local " << num(s.localFraction)
    << ", per-thread " << num(s.perThreadFraction) << ", interleaved " << num(s.interleavedFraction);
  return o.str();
}

void matrixTable(std::ostringstream& o, const Matrix& m, const Placement& p) {
  o << "  cpu\\mem";
  for (size_t j = 0; j < m.size(); ++j) o << "  bank " << j;
  o << "\n";
  for (size_t i = 0; i < m.size(); ++i) {
    char b[32];
    std::snprintf(b, sizeof b, "  socket %-3zu", i);
    o << b;
    for (double v : m[i]) {
      std::snprintf(b, sizeof b, " %6s", num(v).c_str());
      o << b;
    }
    if (p[i] == 0) o << "   (no threads)";
    o << "\n";
  }
}

std::string util(const std::optional<double>& u) { return u ? num(*u * 100, 0) + "%" : "n/a"; }

}  // namespace

std::string toText(const Prediction& p) {
  std::ostringstream o;
  o << "topology: " << p.machine.source << ", " << p.machine.sockets.size() << " sockets; placement";
  for (size_t i = 0; i < p.placement.size(); ++i) o << (i ? ", " : " ") << p.placement[i];
  o << " (" << totalThreads(p.placement) << " threads)\n";
  if (!p.machine.memoryOnlyNodes.empty()) o << "note: CPU-less memory nodes " << probe::formatList(p.machine.memoryOnlyNodes) << " are outside the model\n";
  if (p.read == p.write) {
    o << "signature: " << sigLine(p.read) << "\n";
    o << "traffic fractions (rows: CPU sockets, columns: memory banks):\n";
    matrixTable(o, p.readMatrix, p.placement);
  } else {
    o << "read signature:  " << sigLine(p.read) << "\n";
    o << "write signature: " << sigLine(p.write) << "\n";
    o << "read traffic fractions (rows: CPU sockets, columns: memory banks):\n";
    matrixTable(o, p.readMatrix, p.placement);
    o << "write traffic fractions:\n";
    matrixTable(o, p.writeMatrix, p.placement);
  }
  if (p.load) {
    const auto& l = *p.load;
    o << "predicted load, " << num(l.threadReadGBps, 2) << " GB/s read + " << num(l.threadWriteGBps, 2)
      << " GB/s write per thread" << (p.calibrationSource.empty() ? "" : ", capacities from " + p.calibrationSource)
      << ":\n";
    for (const auto& k : l.links) {
      o << "  socket " << k.cpuSocket << " -> bank " << k.memSocket << ": " << num(k.totalGBps(), 2) << " GB/s ("
        << num(k.readGBps, 2) << " read, " << num(k.writeGBps, 2) << " write)";
      if (!p.calibrationSource.empty()) o << "  utilisation " << util(k.utilisation) << (k.saturated ? "  SATURATED" : "");
      o << "\n";
    }
    for (const auto& b : l.banks) {
      o << "  bank " << b.socket << " total: " << num(b.totalGBps(), 2) << " GB/s";
      if (!p.calibrationSource.empty()) o << "  utilisation " << util(b.utilisation) << (b.saturated ? "  SATURATED" : "");
      o << "\n";
    }
    for (const auto& n : l.notes) o << "note: " << n << "\n";
    if (!p.calibrationSource.empty()) {
      unsigned sat = 0;
      for (const auto& k : l.links) sat += k.saturated;
      for (const auto& b : l.banks) sat += b.saturated;
      o << (sat ? std::to_string(sat) + " saturated (links and banks)\n" : "nothing saturates\n");
    }
  }
  return o.str();
}

std::string toText(const FitResult& f) {
  std::ostringstream o;
  o << "signature fitted to " << f.runs << " runs:\n";
  o << "  read:  " << sigLine(f.read.signature) << "  residual " << num(f.read.residual, 4) << "\n";
  o << "  write: " << sigLine(f.write.signature) << "  residual " << num(f.write.residual, 4) << "\n";
  if (f.read.residual > 0.05 || f.write.residual > 0.05)
    o << "warning: residual above 0.05: the model does not describe this program well\n";
  return o.str();
}

}  // namespace numaperf::bwmodel
