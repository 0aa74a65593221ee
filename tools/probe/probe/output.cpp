#include "probe/output.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "probe/chase.h"

namespace numaperf::probe {

using nlohmann::json;

std::string formatBytes(uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = double(b);
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  if (std::fabs(v - std::round(v)) < 0.05) std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

namespace {
std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string placementText(const PlacementCheck& p, unsigned node) {
  if (!p.known) return "placement not verified (move_pages unavailable)";
  return fmt("%.0f%%", 100.0 * p.fraction()) + " of sampled pages on node " + std::to_string(node);
}

json placementJson(const PlacementCheck& p) {
  if (!p.known) return nullptr;
  return {{"sampled_pages", p.sampled}, {"on_node", p.onNode}};
}

json configJson(const LatencyConfig& c) {
  json j = {{"pu", c.pu},
            {"node", c.node},
            {"buffer_bytes", c.bufferBytes},
            {"workload_bytes", c.workloadBytes},
            {"repeat", c.repeat},
            {"noise", noiseModeName(c.noiseMode)},
            {"pages", pagePolicyName(c.pages)},
            {"pattern", c.localPattern ? "local" : "random"}};
  if (c.noiseMode == NoiseMode::Overload) j["noisy_node"] = c.noisyNode;
  json loaders = json::array();
  for (const auto& l : c.noise.loaders) loaders.push_back({{"pu", l.pu}, {"node", l.node}, {"buffer_bytes", l.bufferBytes}});
  j["loaders"] = loaders;
  return j;
}
}  // namespace

std::string formatLatency(const LatencyResult& r) {
  const auto& c = r.config;
  std::ostringstream o;
  o << "latency: PU " << c.pu << " -> node " << c.node << ", buffer " << formatBytes(c.bufferBytes) << ", "
    << r.stats.samples.size() << " x " << r.stats.accessesPerRep << " accesses, " << (c.localPattern ? "local" : "random")
    << " pattern, " << pagePolicyName(c.pages) << " pages, noise " << noiseModeName(c.noiseMode);
  if (c.noiseMode != NoiseMode::None) o << " (" << r.loaders << " loaders)";
  o << "\n";
  o << "  " << fmt("%.1f", r.stats.medianNs) << " ns per access (median; min " << fmt("%.1f", r.stats.minNs) << ", max "
    << fmt("%.1f", r.stats.maxNs) << ")\n";
  o << "  " << placementText(r.placement, c.node) << "\n";
  return o.str();
}

json latencyJson(const LatencyResult& r) {
  return {{"config", configJson(r.config)},
          {"latency_ns", {{"median", r.stats.medianNs}, {"min", r.stats.minNs}, {"max", r.stats.maxNs}, {"samples", r.stats.samples}}},
          {"accesses_per_repetition", r.stats.accessesPerRep},
          {"placement", placementJson(r.placement)},
          {"loaders_running", r.loaders},
          {"seconds", r.seconds}};
}

std::string formatSweep(const SweepResult& r) {
  std::ostringstream o;
  o << "latency sweep: PU " << r.config.pu << " -> node " << r.config.node << ", noise " << noiseModeName(r.config.noiseMode)
    << "\n";
  o << "  buffer        ns/access\n";
  double prev = 0;
  for (const auto& p : r.points) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "  %-12s %9.2f%s\n", formatBytes(p.bytes).c_str(), p.ns,
                  prev > 0 && p.ns > 1.3 * prev ? "   ^" : "");
    o << buf;
    prev = p.ns;
  }
  o << "plateaus (cache sizes from hwloc):\n";
  o << "  level  size         measured over        ns/access\n";
  for (const auto& p : r.plateaus) {
    char buf[128];
    std::string over = formatBytes(p.fromBytes) + (p.toBytes != p.fromBytes ? " - " + formatBytes(p.toBytes) : "");
    std::snprintf(buf, sizeof buf, "  %-6s %-12s %-20s %9.2f\n", p.name.c_str(),
                  p.cacheBytes ? formatBytes(p.cacheBytes).c_str() : "-", over.c_str(), p.ns);
    o << buf;
  }
  if (!plateausIncrease(r.plateaus)) o << "note: the plateaus do not increase with the level (noisy host?)\n";
  o << "  " << placementText(r.placement, r.config.node) << "\n";
  return o.str();
}

json sweepJson(const SweepResult& r) {
  json pts = json::array(), pls = json::array(), caches = json::array();
  for (const auto& p : r.points) pts.push_back({{"buffer_bytes", p.bytes}, {"ns", p.ns}});
  for (const auto& p : r.plateaus)
    pls.push_back({{"level", p.name},
                   {"cache_bytes", p.cacheBytes ? json(p.cacheBytes) : json(nullptr)},
                   {"from_bytes", p.fromBytes},
                   {"to_bytes", p.toBytes},
                   {"points", p.points},
                   {"ns", p.ns}});
  for (const auto& c : r.caches) caches.push_back({{"level", c.level}, {"size_bytes", c.sizeBytes}});
  return {{"config", configJson(r.config)}, {"caches", caches}, {"points", pts},   {"plateaus", pls},
          {"increasing", plateausIncrease(r.plateaus)}, {"placement", placementJson(r.placement)}, {"seconds", r.seconds}};
}

std::string formatMatrix(const std::string& title, const NodeMatrix& m, int precision) {
  std::ostringstream o;
  o << title << "\n";
  char buf[64];
  std::snprintf(buf, sizeof buf, "  %-10s", "cpu\\mem");
  o << buf;
  for (unsigned c : m.memNodes) {
    std::snprintf(buf, sizeof buf, "%10s", ("node " + std::to_string(c)).c_str());
    o << buf;
  }
  o << "\n";
  for (size_t i = 0; i < m.cpuNodes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "  %-10s", ("node " + std::to_string(m.cpuNodes[i])).c_str());
    o << buf;
    for (size_t j = 0; j < m.memNodes.size(); ++j) {
      if (m.values[i][j]) std::snprintf(buf, sizeof buf, "%10.*f", precision, *m.values[i][j]);
      else std::snprintf(buf, sizeof buf, "%10s", "n/a");
      o << buf;
    }
    o << "\n";
  }
  return o.str();
}

std::string formatCalibration(const Calibration& c) {
  std::ostringstream o;
  o << "host " << c.host << ", " << c.date << ", " << c.topology.pus << " PUs, " << c.topology.nodes.size() << " node(s)\n";
  o << formatMatrix("idle latency (ns)", c.idleLatencyNs, 1);
  bool any = false;
  for (const auto* m : {&c.loadedSpreadNs, &c.loadedOverloadNs, &c.readGBps})
    for (const auto& r : m->values)
      for (const auto& v : r) any |= v.has_value();
  if (any) {
    o << formatMatrix("loaded latency, noise spread (ns)", c.loadedSpreadNs, 1);
    o << formatMatrix("loaded latency, noise overload on the memory node (ns)", c.loadedOverloadNs, 1);
    o << formatMatrix("read bandwidth (GB/s, all PUs of the CPU node)", c.readGBps, 2);
    o << formatMatrix("write bandwidth (GB/s)", c.writeGBps, 2);
    o << formatMatrix("mixed bandwidth, copy 1:1 (GB/s)", c.mixedGBps, 2);
  }
  auto loc = c.meanLocalNs(), rem = c.meanRemoteNs();
  o << "summary: local " << (loc ? fmt("%.1f ns", *loc) : "n/a") << ", remote "
    << (rem ? fmt("%.1f ns", *rem) : "n/a");
  if (loc && rem) o << ", remote costs " << fmt("%.1f ns", *rem - *loc) << " more";
  o << "\n";
  for (const auto& n : c.notes) o << "note: " << n << "\n";
  return o.str();
}

Progress::Progress(std::string title, size_t steps, bool enabled)
    : title_(std::move(title)), steps_(steps), enabled_(enabled), start_(nowSeconds()) {
  if (!enabled_) return;
  ticker_ = std::thread([this] {
    std::unique_lock<std::mutex> lk(mu_);
    while (!stop_) {
      cv_.wait_for(lk, std::chrono::milliseconds(250));
      if (!stop_ && !shown_ && current_ > 0 && nowSeconds() - start_ >= 1.0) draw();
    }
  });
}

Progress::~Progress() { done(); }

void Progress::draw() {
  std::fprintf(stderr, "\r\033[K%s [%zu/%zu] %s", title_.c_str(), std::min(current_, steps_), steps_, what_.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::step(const std::string& what) {
  std::lock_guard<std::mutex> lk(mu_);
  ++current_;
  what_ = what;
  if (enabled_ && nowSeconds() - start_ >= 1.0) draw();
}

void Progress::done() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  if (ticker_.joinable()) ticker_.join();
  std::lock_guard<std::mutex> lk(mu_);
  if (shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  shown_ = false;
}

}  // namespace numaperf::probe
