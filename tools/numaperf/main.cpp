// numaperf: the command-line tool. This file only assembles the subcommands
// (one file each here, plus colleagues' libraries when built) and dispatches.
#include "cli_common.h"
#include "commands.h"

#if NUMAPERF_HAVE_PROBE
#include "cli/probe_command.h"
#endif
#if NUMAPERF_HAVE_COUNTERS
#include "cli/counters_command.h"
#endif
#if NUMAPERF_HAVE_BWMODEL
#include "cli/bwmodel_command.h"
#include "cli/placement_command.h"
#endif

int main(int argc, char** argv) {
  CLI::App app;
  numaperf::cli::configureApp(app);
  numaperf::cli::registerBuiltinCommands(app);
#if NUMAPERF_HAVE_PROBE
  numaperf::cli::registerProbeCommand(app);
#endif
#if NUMAPERF_HAVE_COUNTERS
  numaperf::cli::registerCountersCommand(app);
#endif
#if NUMAPERF_HAVE_BWMODEL
  numaperf::cli::registerBwmodelCommand(app);
  numaperf::cli::registerPlacementCommand(app);
#endif
  return numaperf::cli::parseAndRun(app, argc, argv);
}
