#include "bwmodel/link_load.h"

#include <algorithm>
#include <sstream>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {

namespace {

bool hasNode(const std::vector<unsigned>& v, unsigned n) { return std::find(v.begin(), v.end(), n) != v.end(); }

std::optional<double> positive(std::optional<double> v) {
  if (v && *v > 0) return v;
  return std::nullopt;
}

struct Capacities {
  std::optional<double> read, write;
};

Capacities linkCapacity(const probe::Calibration& c, unsigned cpuNode, unsigned memNode) {
  Capacities k;
  k.read = positive(c.readGBps.at(cpuNode, memNode));
  k.write = positive(c.writeGBps.at(cpuNode, memNode));
  if (!k.write) k.write = positive(c.mixedGBps.at(cpuNode, memNode));
  if (!k.write) k.write = k.read;
  return k;
}

std::optional<double> utilisation(double r, double w, const Capacities& k) {
  double u = 0;
  if (r > 0) {
    if (!k.read) return std::nullopt;
    u += r / *k.read;
  }
  if (w > 0) {
    if (!k.write) return std::nullopt;
    u += w / *k.write;
  }
  return u;
}

}  // namespace

probe::Calibration loadCalibration(const std::string& path) {
  try {
    return probe::readCalibration(path);
  } catch (const probe::CalibrationError& e) {
    throw BwmodelError("calibration file '" + path + "': " + e.what());
  }
}

LoadPrediction predictLoad(const Matrix& read, const Matrix& write, const Placement& p, const Machine& m,
                           double threadReadGBps, double threadWriteGBps, const probe::Calibration* cal) {
  LoadPrediction out;
  out.threadReadGBps = threadReadGBps;
  out.threadWriteGBps = threadWriteGBps;
  const size_t n = p.size();
  if (cal) {
    if (cal->readGBps.empty() && cal->writeGBps.empty() && cal->mixedGBps.empty())
      throw BwmodelError("the calibration file has no bandwidth matrix (measured with --no-bandwidth?)");
    for (size_t i = 0; i < n; ++i) {
      unsigned node = m.sockets[i].node;
      const auto& rows = cal->readGBps.empty() ? cal->mixedGBps.cpuNodes : cal->readGBps.cpuNodes;
      const auto& cols = cal->readGBps.empty() ? cal->mixedGBps.memNodes : cal->readGBps.memNodes;
      if (!hasNode(rows, node) || !hasNode(cols, node)) {
        std::ostringstream o;
        o << "the calibration file (host " << cal->host << ") has no bandwidth for node " << node
          << " (socket " << i << "); its CPU nodes are " << probe::formatList(rows) << " and memory nodes "
          << probe::formatList(cols) << ": calibrate on this machine or give a matching --topology";
        throw BwmodelError(o.str());
      }
    }
  }
  out.banks.resize(n);
  for (size_t j = 0; j < n; ++j) out.banks[j].socket = static_cast<unsigned>(j);
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == 0) continue;
    for (size_t j = 0; j < n; ++j) {
      LinkLoad l;
      l.cpuSocket = static_cast<unsigned>(i);
      l.memSocket = static_cast<unsigned>(j);
      l.readGBps = p[i] * threadReadGBps * read[i][j];
      l.writeGBps = p[i] * threadWriteGBps * write[i][j];
      if (cal) {
        Capacities k = linkCapacity(*cal, m.sockets[i].node, m.sockets[j].node);
        l.readCapacityGBps = k.read;
        l.writeCapacityGBps = k.write;
        l.utilisation = utilisation(l.readGBps, l.writeGBps, k);
        l.saturated = l.utilisation && *l.utilisation >= 1.0;
        if (!l.utilisation && l.totalGBps() > 0) {
          std::ostringstream o;
          o << "no calibrated bandwidth for CPU node " << m.sockets[i].node << " -> memory node " << m.sockets[j].node;
          out.notes.push_back(o.str());
        }
      }
      out.banks[j].readGBps += l.readGBps;
      out.banks[j].writeGBps += l.writeGBps;
      out.links.push_back(l);
    }
  }
  if (cal) {
    for (size_t j = 0; j < n; ++j) {
      Capacities best;
      for (size_t i = 0; i < n; ++i) {
        Capacities k = linkCapacity(*cal, m.sockets[i].node, m.sockets[j].node);
        if (k.read && (!best.read || *k.read > *best.read)) best.read = k.read;
        if (k.write && (!best.write || *k.write > *best.write)) best.write = k.write;
      }
      auto& b = out.banks[j];
      b.readCapacityGBps = best.read;
      b.writeCapacityGBps = best.write;
      b.utilisation = utilisation(b.readGBps, b.writeGBps, best);
      b.saturated = b.utilisation && *b.utilisation >= 1.0;
    }
  }
  return out;
}

}  // namespace numaperf::bwmodel
