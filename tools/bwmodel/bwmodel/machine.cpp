#include "bwmodel/machine.h"

#include <sstream>

#include "bwmodel/error.h"
#include "probe/error.h"
#include "probe/topology.h"

namespace numaperf::bwmodel {

Machine abstractMachine(unsigned sockets) {
  Machine m;
  m.source = "abstract";
  for (unsigned i = 0; i < sockets; ++i) m.sockets.push_back(Socket{i, std::nullopt});
  return m;
}

Machine loadMachine(const std::string& spec) {
  auto load = [&]() {
    if (spec == "host") return probe::HwlocTopology::thisSystem();
    if (spec.rfind("synthetic:", 0) == 0) return probe::HwlocTopology::synthetic(spec.substr(10));
    if (spec.rfind("xml:", 0) == 0) return probe::HwlocTopology::xml(spec.substr(4));
    throw BwmodelError("bad topology '" + spec + "': expected host, synthetic:\"DESCRIPTION\" or xml:FILE");
  };
  probe::Topology t;
  try {
    t = load().model();
  } catch (const probe::ProbeError& e) {
    throw BwmodelError(std::string("topology: ") + e.what());
  }
  Machine m;
  m.source = t.source;
  for (const auto& n : t.nodes) {
    if (!n.pus.empty())
      m.sockets.push_back(Socket{n.os, static_cast<unsigned>(n.pus.size())});
    else if (n.memoryBytes > 0)
      m.memoryOnlyNodes.push_back(n.os);
  }
  if (m.sockets.empty()) throw BwmodelError("topology " + m.source + " has no NUMA node with usable CPUs");
  return m;
}

Placement parsePlacement(const std::string& text) {
  Placement p;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    size_t used = 0;
    unsigned long v = 0;
    bool ok = !item.empty() && item.find_first_not_of("0123456789") == std::string::npos;
    if (ok) {
      try { v = std::stoul(item, &used); } catch (...) { ok = false; }
    }
    if (!ok || v > 1000000) throw BwmodelError("bad placement '" + text + "': expected threads per socket like 3,1");
    p.push_back(static_cast<unsigned>(v));
  }
  if (p.empty() || (!text.empty() && text.back() == ','))
    throw BwmodelError("bad placement '" + text + "': expected threads per socket like 3,1");
  return p;
}

unsigned totalThreads(const Placement& p) {
  unsigned n = 0;
  for (unsigned t : p) n += t;
  return n;
}

unsigned usedSockets(const Placement& p) {
  unsigned s = 0;
  for (unsigned t : p) s += t > 0;
  return s;
}

static std::string describe(const Machine& m) {
  std::ostringstream o;
  o << m.sockets.size() << (m.sockets.size() == 1 ? " socket" : " sockets") << " (";
  for (size_t i = 0; i < m.sockets.size(); ++i) {
    if (i) o << ", ";
    o << "node " << m.sockets[i].node;
    if (m.sockets[i].pus) o << ": " << *m.sockets[i].pus << " PUs";
  }
  o << ") in " << m.source;
  return o.str();
}

void validatePlacement(const Placement& p, const Machine& m) {
  if (p.size() != m.sockets.size()) {
    std::ostringstream o;
    o << "placement names " << p.size() << (p.size() == 1 ? " socket" : " sockets") << " but the topology has "
      << describe(m) << "; give one thread count per socket (0 for an unused socket)";
    throw BwmodelError(o.str());
  }
  if (totalThreads(p) == 0) throw BwmodelError("placement has no threads");
  for (size_t i = 0; i < p.size(); ++i) {
    const auto& s = m.sockets[i];
    if (s.pus && p[i] > *s.pus) {
      std::ostringstream o;
      o << "placement puts " << p[i] << " threads on socket " << i << " (node " << s.node << "), which has only "
        << *s.pus << " PUs; topology: " << describe(m);
      throw BwmodelError(o.str());
    }
  }
}

}  // namespace numaperf::bwmodel
