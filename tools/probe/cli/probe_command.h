// `numaperf probe ...`: host probes (latency, sweep, matrix, calibration).
//
// registerProbeCommand adds the `probe` subcommand and its own subcommands
// (latency, matrix, calibrate) to the application. Their callbacks run the
// probes; on bad input (nonexistent PU or node, buffer too large for the
// node, noisy node without memory, no permission to bind, ...) they print one
// message on stderr and throw CLI::RuntimeError(2), which CLI11's
// app.exit() / CLI11_PARSE turn into exit status 2 without printing more. No
// probe thread is left running when a callback returns or throws.
#pragma once
#include <CLI/CLI.hpp>

namespace numaperf::cli {

void registerProbeCommand(CLI::App& app);

}  // namespace numaperf::cli
