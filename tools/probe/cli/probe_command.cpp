#include "cli/probe_command.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "probe/calibration.h"
#include "probe/error.h"
#include "probe/output.h"
#include "probe/request.h"
#include "probe/runner.h"
#include "probe/topology.h"

namespace numaperf::cli {

using namespace numaperf::probe;

namespace {

struct LatencyOpts {
  long long pu = 0, node = 0, buffer = 0, workload = 0, noisyNode = 0, repeat = 0;
  std::string noise = "none";
  std::string pages = "huge";
  std::string pattern = "random";
  bool sweep = false, json = false;
  CLI::Option *puO, *nodeO, *bufferO, *workloadO, *noisyNodeO, *repeatO;
};

struct MatrixOpts {
  long long buffer = 0, workload = 0, repeat = 5;
  double bwSeconds = 0.3;
  bool noLoaded = false, noBandwidth = false, json = false;
  std::string file;
  CLI::Option *bufferO, *workloadO;
};

// Runs a probe body; turns user errors into one message and exit status 2.
template <class Fn>
void guarded(Fn&& fn) {
  try {
    fn();
  } catch (const ProbeError& e) {
    std::fprintf(stderr, "numaperf probe: error: %s\n", e.what());
    throw CLI::RuntimeError(2);
  } catch (const CalibrationError& e) {
    std::fprintf(stderr, "numaperf probe: error: %s\n", e.what());
    throw CLI::RuntimeError(2);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "numaperf probe: error: out of memory\n");
    throw CLI::RuntimeError(2);
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::exception& e) {
    // Not the user's doing: status 1.
    std::fprintf(stderr, "numaperf probe: internal error: %s\n", e.what());
    throw CLI::RuntimeError(1);
  }
}

HwlocTopology loadThisSystem() {
  HwlocTopology topo = HwlocTopology::thisSystem();
  if (!hwloc_topology_is_thissystem(topo.get()))
    throw ProbeError("hwloc describes another machine (HWLOC_XMLFILE or HWLOC_SYNTHETIC is set): nothing can be measured");
  return topo;
}

void runLatencyCommand(const LatencyOpts& o) {
  HwlocTopology topo = loadThisSystem();
  Topology t = topo.model();
  LatencyArgs a;
  if (o.puO->count()) a.pu = o.pu;
  if (o.nodeO->count()) a.node = o.node;
  if (o.bufferO->count()) a.bufferKiB = o.buffer;
  if (o.workloadO->count()) a.workloadKiB = o.workload;
  if (o.noisyNodeO->count()) a.noisyNode = o.noisyNode;
  if (o.repeatO->count()) a.repeat = o.repeat;
  a.noise = o.noise;
  a.pages = o.pages;
  a.pattern = o.pattern;
  a.sweep = o.sweep;
  LatencyConfig c = resolveLatency(t, a);
  for (const auto& n : c.notes) std::fprintf(stderr, "note: %s\n", n.c_str());
  if (o.sweep) {
    size_t steps = sweepSizes({}, c.bufferBytes).size();
    Progress progress("probe latency --sweep", steps, isatty(2));
    SweepResult r = runSweep(topo.get(), t, c, [&](const std::string& s) { progress.step(s); });
    progress.done();
    std::cout << (o.json ? sweepJson(r).dump(2) + "\n" : formatSweep(r));
  } else {
    Progress progress("probe latency", c.noise.loaders.empty() ? 2 : 3, isatty(2));
    LatencyResult r = runLatency(topo.get(), t, c, [&](const std::string& s) { progress.step(s); });
    progress.done();
    std::cout << (o.json ? latencyJson(r).dump(2) + "\n" : formatLatency(r));
  }
}

MatrixOptions matrixOptions(const MatrixOpts& o) {
  MatrixOptions m;
  if (o.bufferO->count()) {
    if (o.buffer < 1) throw ProbeError("--buffer must be at least 1 KiB");
    if (o.buffer > (1ll << 28)) throw ProbeError("--buffer must be at most 268435456 KiB (256 GiB)");
    m.bufferBytes = static_cast<uint64_t>(o.buffer) * 1024;
  }
  if (o.workloadO->count()) {
    if (o.workload < 1) throw ProbeError("--workload must be at least 1 KiB");
    m.workloadBytes = static_cast<uint64_t>(o.workload) * 1024;
  }
  if (o.repeat < 1 || o.repeat > 1000) throw ProbeError("--repeat must be between 1 and 1000");
  if (!(o.bwSeconds > 0 && o.bwSeconds <= 60)) throw ProbeError("--bandwidth-seconds must be in (0, 60]");
  m.repeat = static_cast<unsigned>(o.repeat);
  m.bandwidthSeconds = o.bwSeconds;
  m.loaded = !o.noLoaded;
  m.bandwidth = !o.noBandwidth;
  return m;
}

Calibration runMatrixCommand(const MatrixOpts& o, const char* title) {
  MatrixOptions m = matrixOptions(o);
  HwlocTopology topo = loadThisSystem();
  Topology t = topo.model();
  for (unsigned node : t.memoryNodes()) {
    uint64_t bytes = m.bufferBytes ? m.bufferBytes : defaultDramBufferBytes(t, node);
    checkFits(t, bytes, node, NoisePlan{});
  }
  Progress progress(title, matrixSteps(t, m), isatty(2));
  Calibration c = runMatrix(topo.get(), t, m, [&](const std::string& s) { progress.step(s); });
  progress.done();
  return c;
}

void addMatrixOptions(CLI::App* sub, MatrixOpts& o) {
  o.bufferO = sub->add_option("--buffer", o.buffer, "Latency buffer per memory node, KiB (default: larger than every cache)");
  o.workloadO = sub->add_option("--workload", o.workload, "KiB accessed per latency figure (default 65536)");
  sub->add_option("--repeat", o.repeat, "Timed repetitions per latency figure (median kept)")->capture_default_str();
  sub->add_option("--bandwidth-seconds", o.bwSeconds, "Duration of each bandwidth figure")->capture_default_str();
  sub->add_flag("--no-loaded", o.noLoaded, "Skip loaded latencies");
  sub->add_flag("--no-bandwidth", o.noBandwidth, "Skip bandwidths");
}

}  // namespace

void registerProbeCommand(CLI::App& app) {
  CLI::App* probe = app.add_subcommand("probe", "Measure this host's memory latency and bandwidth per NUMA node pair");
  probe->require_subcommand(1);

  auto lo = std::make_shared<LatencyOpts>();
  CLI::App* lat = probe->add_subcommand("latency", "Pointer-chase latency from one PU to a buffer on one node");
  lo->puO = lat->add_option("--pu", lo->pu, "PU running the test thread (OS number, as in taskset; default: first allowed)");
  lo->nodeO = lat->add_option("--node", lo->node, "NUMA node holding the buffer (default: the PU's node)");
  lo->bufferO = lat->add_option("--buffer", lo->buffer, "Buffer size in KiB (default: 4 x the largest cache, >= 256 MiB)");
  lo->workloadO = lat->add_option("--workload", lo->workload, "KiB accessed in the timed repetitions (default 131072)");
  lat->add_option("--noise", lo->noise, "Noisy loaders: none, spread or overload")->capture_default_str();
  lo->noisyNodeO = lat->add_option("--noisy-node", lo->noisyNode, "Node read by all loaders with --noise overload (default: --node)");
  lat->add_option("--pages", lo->pages, "Buffer pages: huge (transparent huge pages when available), small (4 KiB) or default")
      ->capture_default_str();
  lat->add_option("--pattern", lo->pattern,
                  "Chase order: random (all lines, random pages) or local (random within 2 MiB windows, few TLB misses)")
      ->capture_default_str();
  lo->repeatO = lat->add_option("--repeat", lo->repeat, "Timed repetitions (default 7; median reported)");
  lat->add_flag("--sweep", lo->sweep, "Sweep buffer sizes up to --buffer and print the L1/L2/L3/DRAM plateaus");
  lat->add_flag("--json", lo->json, "JSON on stdout instead of text");
  lat->callback([lo] { guarded([&] { runLatencyCommand(*lo); }); });

  auto mo = std::make_shared<MatrixOpts>();
  CLI::App* mat = probe->add_subcommand("matrix", "Idle and loaded latency, read/write/mixed bandwidth for every (CPU node, memory node)");
  addMatrixOptions(mat, *mo);
  mat->add_flag("--json", mo->json, "JSON (the calibration document) on stdout instead of text");
  mat->callback([mo] {
    guarded([&] {
      Calibration c = runMatrixCommand(*mo, "probe matrix");
      std::cout << (mo->json ? toJson(c).dump(2) + "\n" : formatCalibration(c));
    });
  });

  auto co = std::make_shared<MatrixOpts>();
  CLI::App* cal = probe->add_subcommand("calibrate", "Run the matrix and write the host's calibration file (JSON)");
  cal->add_option("FILE", co->file, "Calibration file to write")->required();
  addMatrixOptions(cal, *co);
  cal->callback([co] {
    guarded([&] {
      Calibration c = runMatrixCommand(*co, "probe calibrate");
      writeCalibration(co->file, c);
      std::cout << formatCalibration(c) << "calibration written to " << co->file << "\n";
    });
  });
}

}  // namespace numaperf::cli
