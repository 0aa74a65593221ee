#include "cli/placement_command.h"

#include "cli/command_errors.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "bwmodel/error.h"
#include "bwmodel/link_load.h"
#include "bwmodel/machine.h"
#include "bwmodel/matrices.h"
#include "bwmodel/output.h"
#include "bwmodel/profile_signature.h"
#include "probe/calibration.h"
#include "profile_loader.h"
#include "report/text_render.h"

namespace numaperf::cli {

using namespace numaperf::bwmodel;
using nlohmann::json;

namespace {

struct Opts {
  std::string profile, topology, threadsPerNode, calibration;
  double threadGBps = 0;
  bool json = false;
  CLI::Option *bandwidthO = nullptr, *calibrationO = nullptr;
};

[[noreturn]] void fail(const std::string& msg) { failCommand("placement", msg); }

// host | FILE.xml | SYNTHETIC (also the bwmodel spellings xml:FILE, synthetic:DESC).
std::string topologySpec(const std::string& t) {
  if (t == "host" || t.rfind("xml:", 0) == 0 || t.rfind("synthetic:", 0) == 0) return t;
  if (t.size() > 4 && t.compare(t.size() - 4, 4, ".xml") == 0) return "xml:" + t;
  return "synthetic:" + t;
}

struct Scenario {
  std::string name, kind;  // kind: placement | fix
  std::string fix;
  std::optional<report::ObjectInfo> object;
  bool roundRobin = false;
  ClassWeights weights;
  Prediction prediction;
  double readShare = 0;  // of all accesses
  std::vector<std::vector<double>> linkShare;  // of all traffic, [cpu][mem]
  std::vector<double> nodeShare;
  double remoteShare = 0;
};

void predict(Scenario& s, const Machine& m, const Placement& p, double threadGBps, bool withLoad,
             const probe::Calibration* cal, const std::string& calSource) {
  Prediction& pr = s.prediction;
  pr.machine = m;
  pr.placement = p;
  pr.read = modelSignature(s.weights.read, p, s.roundRobin);
  pr.write = modelSignature(s.weights.write, p, s.roundRobin);
  pr.readMatrix = trafficMatrix(pr.read, p);
  pr.writeMatrix = trafficMatrix(pr.write, p);
  double total = s.weights.total();
  s.readShare = total > 0 ? s.weights.read.total() / total : 0;
  const unsigned n = totalThreads(p);
  const size_t k = p.size();
  s.linkShare.assign(k, std::vector<double>(k, 0));
  s.nodeShare.assign(k, 0);
  s.remoteShare = 0;
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < k; ++j) {
      double v = double(p[i]) / n * (s.readShare * pr.readMatrix[i][j] + (1 - s.readShare) * pr.writeMatrix[i][j]);
      s.linkShare[i][j] = v;
      s.nodeShare[j] += v;
      if (i != j) s.remoteShare += v;
    }
  if (withLoad) {
    pr.load = predictLoad(pr.readMatrix, pr.writeMatrix, p, m, threadGBps * s.readShare,
                          threadGBps * (1 - s.readShare), cal);
    pr.calibrationSource = calSource;
  }
}

bool sameObject(const report::ObjectInfo& a, const report::ObjectInfo& b) {
  return a.kind == b.kind && a.name == b.name && a.site.file == b.site.file && a.site.line == b.site.line &&
         a.site.function == b.site.function;
}

std::optional<TrafficClass> fixTarget(const std::string& fix) {
  if (fix == "page_interleave") return TrafficClass::Interleaved;
  if (fix == "duplicate" || fix == "block_interleave" || fix == "local_allocation") return TrafficClass::Local;
  return std::nullopt;
}

std::string num(double v, int prec = 3) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, rounded(v));
  return b;
}

json scenarioJson(const Scenario& s) {
  json j = toJson(s.prediction);
  j.erase("format");
  j.erase("version");
  j.erase("topology");
  json out = {{"name", s.name}, {"kind", s.kind}};
  if (s.kind == "fix") {
    out["fix"] = s.fix;
    out["object"] = report::shortObjectLabel(*s.object);
  }
  out["placement_order"] = s.roundRobin ? "round_robin" : "in_order";
  for (auto& [k, v] : j.items()) out[k] = v;
  json links = json::array(), nodes = json::array();
  const auto& m = s.prediction.machine;
  for (size_t i = 0; i < s.linkShare.size(); ++i)
    for (size_t jj = 0; jj < s.linkShare.size(); ++jj)
      if (s.prediction.placement[i])
        links.push_back({{"cpu_socket", i}, {"memory_socket", jj}, {"cpu_node", m.sockets[i].node},
                         {"memory_node", m.sockets[jj].node}, {"share", rounded(s.linkShare[i][jj])}});
  double top = 0;
  for (size_t jj = 0; jj < s.nodeShare.size(); ++jj) {
    nodes.push_back({{"socket", jj}, {"node", m.sockets[jj].node}, {"share", rounded(s.nodeShare[jj])}});
    top = std::max(top, s.nodeShare[jj]);
  }
  out["read_share"] = rounded(s.readShare);
  out["links"] = links;
  out["nodes"] = nodes;
  out["remote_share"] = rounded(s.remoteShare);
  out["max_node_share"] = rounded(top);
  return out;
}

std::string scenarioText(const Scenario& s) {
  std::ostringstream o;
  const Placement& p = s.prediction.placement;
  o << "\n" << s.name << ": placement";
  for (size_t i = 0; i < p.size(); ++i) o << (i ? ", " : " ") << p[i];
  o << (s.roundRobin ? " (threads dealt round-robin)" : "") << "\n";
  o << "  read  " << "static " << num(s.prediction.read.staticFraction) << " (socket "
    << s.prediction.read.staticSocket << "), local " << num(s.prediction.read.localFraction) << ", per-thread "
    << num(s.prediction.read.perThreadFraction) << ", interleaved " << num(s.prediction.read.interleavedFraction)
    << "\n";
  o << "  write " << "static " << num(s.prediction.write.staticFraction) << " (socket "
    << s.prediction.write.staticSocket << "), local " << num(s.prediction.write.localFraction) << ", per-thread "
    << num(s.prediction.write.perThreadFraction) << ", interleaved "
    << num(s.prediction.write.interleavedFraction) << "\n";
  o << "  share of all traffic (rows: CPU sockets, columns: memory banks; reads " << num(s.readShare, 2) << "):\n";
  o << "  cpu\\mem   ";
  for (size_t j = 0; j < p.size(); ++j) o << "  bank " << j;
  o << "\n";
  for (size_t i = 0; i < p.size(); ++i) {
    if (!p[i]) continue;
    char b[32];
    std::snprintf(b, sizeof b, "  socket %-3zu", i);
    o << b;
    for (double v : s.linkShare[i]) {
      std::snprintf(b, sizeof b, " %6s", num(v).c_str());
      o << b;
    }
    o << "\n";
  }
  o << "  per bank:";
  for (size_t j = 0; j < p.size(); ++j) o << " " << num(s.nodeShare[j]);
  o << "; remote " << num(s.remoteShare) << "\n";
  if (s.prediction.load) {
    const LoadPrediction& l = *s.prediction.load;
    unsigned sat = 0;
    for (const auto& k : l.links) {
      o << "  socket " << k.cpuSocket << " -> bank " << k.memSocket << ": " << num(k.totalGBps(), 2) << " GB/s";
      if (k.utilisation) o << ", utilisation " << num(*k.utilisation * 100, 0) << "%" << (k.saturated ? " SATURATED" : "");
      o << "\n";
      sat += k.saturated;
    }
    for (const auto& b : l.banks) {
      o << "  bank " << b.socket << ": " << num(b.totalGBps(), 2) << " GB/s";
      if (b.utilisation) o << ", utilisation " << num(*b.utilisation * 100, 0) << "%" << (b.saturated ? " SATURATED" : "");
      o << "\n";
      sat += b.saturated;
    }
    if (!s.prediction.calibrationSource.empty())
      o << "  " << (sat ? std::to_string(sat) + " saturated (links and banks)" : std::string("nothing saturates")) << "\n";
    for (const auto& n : l.notes) o << "  note: " << n << "\n";
  }
  return o.str();
}

void run(const Opts& o) {
  std::string error;
  auto loaded = loadProfile(o.profile, &error);
  if (!loaded) fail(error);
  const report::Profile& profile = loaded->profile;
  if (!profile.signature)
    fail(o.profile + ": the profile has no bandwidth_signature (written by an older numaperf, or no access was classified)");
  const report::BandwidthSignature& sig = *profile.signature;
  for (const auto& [what, k] : {std::pair<const char*, const report::SignatureShares*>{"read", &sig.read},
                                {"write", &sig.write}}) {
    double sum = k->static_share + k->local + k->per_thread + k->interleaved;
    if (k->accesses > 0 && std::abs(sum - 1) > 1e-6)
      fail(o.profile + ": bandwidth_signature.program." + what + ": the four fractions sum to " +
           std::to_string(sum) + ", not 1");
  }
  ClassWeights program = programWeights(sig);
  if (!(program.total() > 0)) fail(o.profile + ": the bandwidth signature has no accesses");
  if (*o.calibrationO && !*o.bandwidthO) fail("--calibration needs --thread-bandwidth GBPS (traffic per thread)");
  if (*o.bandwidthO && !(o.threadGBps >= 0 && o.threadGBps < 1e6)) fail("--thread-bandwidth must be in [0, 1e6) GB/s");

  Machine machine = loadMachine(topologySpec(o.topology));
  Placement given = parsePlacement(o.threadsPerNode);
  validatePlacement(given, machine);
  const unsigned threads = totalThreads(given);
  std::unique_ptr<probe::Calibration> cal;
  if (*o.calibrationO) {
    cal = std::make_unique<probe::Calibration>(loadCalibration(o.calibration));
  }

  std::vector<Scenario> scenarios;
  auto add = [&](Scenario s, const Placement& p) {
    predict(s, machine, p, o.threadGBps, bool(*o.bandwidthO), cal.get(), *o.calibrationO ? o.calibration : "");
    scenarios.push_back(std::move(s));
  };
  Scenario base;
  base.weights = program;
  base.kind = "placement";
  base.name = "given";
  add(base, given);
  base.name = "round-robin";
  base.roundRobin = true;
  add(base, roundRobinPlacement(threads, machine));
  base.name = "packed";
  base.roundRobin = false;
  add(base, packedPlacement(threads, machine));

  // The fixes the report suggests for remote accesses, one at a time and all
  // together, under the given placement.
  std::vector<std::string> notes;
  ClassWeights all = program;
  unsigned applied = 0;
  for (const report::Issue& issue : profile.issues) {
    if (issue.kind != "remote_access") continue;
    std::optional<TrafficClass> target = fixTarget(issue.fix);
    if (!target) continue;
    const report::ObjectSignature* obj = nullptr;
    for (const auto& os : sig.objects)
      if (sameObject(os.object, issue.object)) obj = &os;
    if (!obj) {
      notes.push_back("fix " + issue.fix + " of " + report::shortObjectLabel(issue.object) +
                      ": the object is not in the signature's object list");
      continue;
    }
    ClassWeights w = objectWeights(*obj);
    Scenario f;
    f.kind = "fix";
    f.fix = issue.fix;
    f.object = issue.object;
    f.name = "fix " + issue.fix + " " + report::shortObjectLabel(issue.object);
    f.weights = moveObject(program, w, *target);
    all = moveObject(all, w, *target);
    ++applied;
    add(f, given);
  }
  if (applied > 1) {
    Scenario f;
    f.kind = "fix";
    f.fix = "all";
    f.object = report::ObjectInfo();
    f.object->kind = "all";
    f.name = "all fixes";
    f.weights = all;
    add(f, given);
  }

  if (o.json) {
    json topo = toJson(scenarios.front().prediction)["topology"];
    topo["sockets"] = json::array();
    for (size_t i = 0; i < machine.sockets.size(); ++i)
      topo["sockets"].push_back({{"socket", i},
                                 {"node", machine.sockets[i].node},
                                 {"pus", machine.sockets[i].pus ? json(*machine.sockets[i].pus) : json(nullptr)}});
    json list = json::array();
    for (const Scenario& s : scenarios) list.push_back(scenarioJson(s));
    json j = {{"format", "numaperf-placement"}, {"version", 1},    {"profile", o.profile},
              {"weighting", sig.weighting},     {"topology", topo}, {"threads", threads},
              {"scenarios", list},              {"notes", notes}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "profile: " << o.profile << " (weighting: " << sig.weighting << ")\n";
  std::cout << "topology: " << machine.source << ", " << machine.sockets.size() << " sockets; " << threads
            << " threads\n";
  for (const Scenario& s : scenarios) std::cout << scenarioText(s);
  for (const auto& n : notes) std::cout << "note: " << n << "\n";
}

}  // namespace

void registerPlacementCommand(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  CLI::App* c = app.add_subcommand(
      "placement", "What-if: predicted traffic per link and node for a profiled program under other placements and fixes");
  c->add_option("profile", o->profile, "Profile JSON written by the runtime")->required();
  c->add_option("--topology", o->topology, "host, FILE.xml or a synthetic hwloc description (\"pack:2 [numa] core:4 pu:1\")")
      ->required();
  c->add_option("--threads-per-node", o->threadsPerNode, "Threads per NUMA node with CPUs, in node order: 3,1")->required();
  o->bandwidthO = c->add_option("--thread-bandwidth", o->threadGBps, "Memory traffic of one thread, GB/s: predicts GB/s per link");
  o->calibrationO = c->add_option("--calibration", o->calibration, "Calibration file (numaperf probe calibrate): flags saturated links");
  c->add_flag("--json", o->json, "JSON on stdout");
  c->callback([o]() { runReportingErrors("placement", [&] { run(*o); }); });
}

}  // namespace numaperf::cli
