// `numaperf counters [-e EVENTS | -g GROUP] [-I MS] [--json FILE] -- PROGRAM ARGS`
// (issue 7; docs/counters.md). Counts the program's events with the
// multiplexing correction and prints totals (and with -I a time series), each
// with its credible interval and the share of time it was counted. Events the
// host cannot count get one line `numaperf counters: EVENT not counted: WHY`
// and the rest carry on. Bad input prints one line `numaperf counters:
// error: ...` and throws CLI::RuntimeError(2); otherwise the command exits
// with the program's status.
#pragma once
#include <CLI/CLI.hpp>

namespace numaperf::cli {

void registerCountersCommand(CLI::App& app);

}  // namespace numaperf::cli
