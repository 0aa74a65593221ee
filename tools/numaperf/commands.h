// The subcommands implemented in this folder (one file each).
#pragma once

#include <CLI/CLI.hpp>

namespace numaperf::cli {

void registerReportCommand(CLI::App& app);  // cmd_report.cpp
void registerCheckCommand(CLI::App& app);   // cmd_check.cpp
void registerDiffCommand(CLI::App& app);    // cmd_diff.cpp
void registerRunCommand(CLI::App& app);     // cmd_run.cpp
void registerSelectCommand(CLI::App& app);  // cmd_select.cpp

// All five, in the order --help lists them.
inline void registerBuiltinCommands(CLI::App& app) {
  registerRunCommand(app);
  registerReportCommand(app);
  registerCheckCommand(app);
  registerDiffCommand(app);
  registerSelectCommand(app);
}

}  // namespace numaperf::cli
