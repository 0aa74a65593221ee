// `numaperf bwmodel ...`: bandwidth signatures and placement prediction
// (issue 8; docs/bwmodel.md).
//
// registerBwmodelCommand adds the `bwmodel` subcommand. On bad input
// (fractions, placement, topology, calibration, readings) or when asked to
// measure on a host without memory-controller counters, its callback prints
// one line `numaperf bwmodel: error: ...` on stderr and throws
// CLI::RuntimeError(2), which CLI11_PARSE / app.exit() turn into exit
// status 2.
#pragma once
#include <CLI/CLI.hpp>

namespace numaperf::cli {

void registerBwmodelCommand(CLI::App& app);

}  // namespace numaperf::cli
