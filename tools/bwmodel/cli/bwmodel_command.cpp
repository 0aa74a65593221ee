#include "cli/bwmodel_command.h"

#include "cli/command_errors.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "bwmodel/counters.h"
#include "bwmodel/error.h"
#include "bwmodel/link_load.h"
#include "bwmodel/machine.h"
#include "bwmodel/matrices.h"
#include "bwmodel/output.h"
#include "bwmodel/readings.h"
#include "bwmodel/signature.h"
#include "bwmodel/solver.h"
#include "probe/calibration.h"

namespace numaperf::cli {

using namespace numaperf::bwmodel;

namespace {

// One kind's options (common, read- or write-specific).
struct FractionOpts {
  double st = 0, local = 0, perThread = 0, interleaved = 0;
  unsigned staticSocket = 0;
  CLI::Option *stO = nullptr, *localO = nullptr, *perThreadO = nullptr, *interleavedO = nullptr, *socketO = nullptr;

  void add(CLI::App* c, const std::string& prefix, const std::string& what) {
    stO = c->add_option("--" + prefix + "static", st, "Fraction of " + what + "traffic to the static socket's bank");
    localO = c->add_option("--" + prefix + "local", local, "Fraction of " + what + "traffic to the thread's own socket");
    perThreadO = c->add_option("--" + prefix + "per-thread", perThread,
                               "Fraction of " + what + "traffic to data each thread allocated 1/n of");
    interleavedO = c->add_option("--" + prefix + "interleaved", interleaved,
                                 "Fraction of " + what + "traffic interleaved over the used sockets (default: the remainder)");
    socketO = c->add_option("--" + prefix + "static-socket", staticSocket, "Socket (0-based) holding the static data");
  }
  bool any() const { return *stO || *localO || *perThreadO || *interleavedO || *socketO; }
};

template <class T>
std::optional<T> pick(const CLI::Option* specific, const T& sv, const CLI::Option* common, const T& cv) {
  if (*specific) return sv;
  if (*common) return cv;
  return std::nullopt;
}

SignatureInput merge(const FractionOpts& k, const FractionOpts& c) {
  SignatureInput in;
  in.staticFraction = pick(k.stO, k.st, c.stO, c.st);
  in.localFraction = pick(k.localO, k.local, c.localO, c.local);
  in.perThreadFraction = pick(k.perThreadO, k.perThread, c.perThreadO, c.perThread);
  in.interleavedFraction = pick(k.interleavedO, k.interleaved, c.interleavedO, c.interleaved);
  in.staticSocket = pick(k.socketO, k.staticSocket, c.socketO, c.staticSocket);
  return in;
}

struct Opts {
  FractionOpts common, read, write;
  std::string placement, topology, calibration, fit;
  double threadGBps = 0, writeShare = 0;
  bool json = false, measure = false;
  CLI::Option *placementO, *topologyO, *bandwidthO, *writeShareO, *calibrationO, *fitO;
};

void fail(const std::string& msg) { failCommand("bwmodel", msg); }

void run(const Opts& o) {
  if (o.measure) {
    std::string why = memoryCountersUnavailableReason();
    if (!why.empty())
      fail("memory-controller counters are unavailable on this host (" + why +
           "): give the signature with --static/--local/--per-thread, or fit it from readings with --fit FILE");
    fail("measuring the signature needs the counter layer, which this build does not link yet: fit it from readings "
         "with --fit FILE");
  }
  const bool anyFractions = o.common.any() || o.read.any() || o.write.any();
  std::optional<FitResult> fitted;
  if (*o.fitO) {
    if (anyFractions) fail("--fit computes the signature: do not give fractions with it");
    Readings r = readReadings(o.fit);
    FitResult f;
    f.read = fitSignature(r.reads);
    f.write = fitSignature(r.writes);
    f.runs = static_cast<unsigned>(r.reads.size());
    fitted = f;
    if (!*o.placementO) {
      std::cout << (o.json ? toJson(f).dump(2) + "\n" : toText(f));
      return;
    }
  }
  if (!*o.placementO) fail("--placement is required (threads per socket, like 3,1)");
  if (*o.calibrationO && !*o.bandwidthO) fail("--calibration needs --thread-bandwidth GBPS (traffic per thread)");
  if (*o.writeShareO && !*o.bandwidthO) fail("--write-share needs --thread-bandwidth GBPS");
  if (*o.bandwidthO && !(o.threadGBps >= 0 && o.threadGBps < 1e6)) fail("--thread-bandwidth must be in [0, 1e6) GB/s");
  if (!(o.writeShare >= 0 && o.writeShare <= 1)) fail("--write-share must be in [0, 1]");

  Prediction p;
  p.placement = parsePlacement(o.placement);
  p.machine = *o.topologyO ? loadMachine(o.topology) : abstractMachine(static_cast<unsigned>(p.placement.size()));
  validatePlacement(p.placement, p.machine);
  if (fitted) {
    p.read = fitted->read.signature;
    p.write = fitted->write.signature;
  } else {
    const bool split = o.read.any() || o.write.any();
    p.read = completeSignature(merge(o.read, o.common), split ? "read" : "");
    p.write = completeSignature(merge(o.write, o.common), split ? "write" : "");
  }
  p.readMatrix = trafficMatrix(p.read, p.placement);
  p.writeMatrix = trafficMatrix(p.write, p.placement);
  if (*o.bandwidthO) {
    std::unique_ptr<probe::Calibration> cal;
    if (*o.calibrationO) {
      cal = std::make_unique<probe::Calibration>(loadCalibration(o.calibration));
      p.calibrationSource = o.calibration;
    }
    p.load = predictLoad(p.readMatrix, p.writeMatrix, p.placement, p.machine, o.threadGBps * (1 - o.writeShare),
                         o.threadGBps * o.writeShare, cal.get());
  }
  if (o.json) {
    nlohmann::json j = toJson(p);
    if (fitted) j["fit"] = toJson(*fitted);
    std::cout << j.dump(2) << "\n";
  } else {
    if (fitted) std::cout << toText(*fitted);
    std::cout << toText(p);
  }
}

}  // namespace

void registerBwmodelCommand(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  CLI::App* c = app.add_subcommand(
      "bwmodel", "Predict memory traffic per (CPU socket, memory bank) from a bandwidth signature and a placement");
  o->common.add(c, "", "");
  o->read.add(c, "read-", "read ");
  o->write.add(c, "write-", "write ");
  o->placementO = c->add_option("--placement", o->placement, "Threads per socket, in socket order: 3,1");
  o->topologyO = c->add_option("--topology", o->topology,
                               "host, synthetic:\"pack:2 [numa] core:4 pu:1\" or xml:FILE (default: an abstract "
                               "machine with the placement's sockets)");
  o->bandwidthO = c->add_option("--thread-bandwidth", o->threadGBps, "Memory traffic of one thread, GB/s: predicts load per link");
  o->writeShareO = c->add_option("--write-share", o->writeShare, "Fraction of that traffic that is writes (default 0)");
  o->calibrationO = c->add_option("--calibration", o->calibration, "Calibration file (numaperf probe calibrate): flags saturated links");
  o->fitO = c->add_option("--fit", o->fit, "Fit the read and write signatures to counter readings of two or more runs (JSON)");
  c->add_flag("--measure", o->measure, "Measure the signature with memory-controller counters (two runs)");
  c->add_flag("--json", o->json, "JSON on stdout");
  c->callback([o]() { runReportingErrors("bwmodel", [&] { run(*o); }); });
}

}  // namespace numaperf::cli
