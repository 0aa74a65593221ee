// numaperf-probe: the probe commands alone (`numaperf-probe probe latency`),
// handy to test them without the full `numaperf` command.
#include <CLI/CLI.hpp>

#include "cli/probe_command.h"

int main(int argc, char** argv) {
  CLI::App app{"numaperf host probes"};
  app.require_subcommand(1);
  numaperf::cli::registerProbeCommand(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
