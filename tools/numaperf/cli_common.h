// Shared pieces of the `numaperf` subcommands: exit codes, one-line
// diagnostics, loading profiles, writing output, and running the parsed
// command line.
#pragma once

#include "profile_loader.h"

#include <CLI/CLI.hpp>

#include <string>

namespace numaperf::cli {

// Conventional exit codes of every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitRegression = 1;  // `check`: a score got worse
constexpr int kExitUsage = 2;       // bad options or unusable input

// Prints "numaperf: MESSAGE" on stderr.
void message(const std::string& text);
// Prints "numaperf: note: MESSAGE" on stderr.
void note(const std::string& text);

// Ends the running subcommand with `code` (after `message(text)` when text
// is not empty): throws CLI::RuntimeError, which parseAndRun turns into the
// exit code. Subcommand callbacks use it instead of exit().
[[noreturn]] void finish(int code, const std::string& text = std::string());

// Loads a profile or finishes with kExitUsage and the reason. Unknown fields
// are listed in a note.
LoadedProfile loadOrFail(const std::string& path);

// Writes text to stdout ("" or "-") or atomically to a file; finishes with
// kExitUsage when that fails.
void writeOutput(const std::string& path, const std::string& text);

// --color auto|always|never: auto = stdout is a terminal and NO_COLOR unset
// (the same rule the runtime applies to stderr at exit).
bool useColor(const std::string& mode, const std::string& output_path);

// Parse-only mode (the option-parser fuzzer): callbacks check their options
// and return before reading files, writing output or starting programs.
void setParseOnly(bool parse_only);
bool parseOnly();

// Parses and runs the selected subcommand; returns the process exit code.
// Usage errors print "numaperf: ..." and a hint to --help and return 2.
int parseAndRun(CLI::App& app, int argc, const char* const* argv);

// Option checks: a finite number >= 0; a relative tolerance given as a
// fraction or a percentage ("0.1" or "10%").
CLI::Validator finiteNonNegative();
bool parseRelative(const std::string& text, double* out);
bool parseFinite(const std::string& text, double* out);

// A figure for people: 1 decimal from 100 up, 2 from 1, else 4.
std::string formatValue(double value);
// "+35.0%" of the change from a to b ("new" when a is 0).
std::string formatPercentChange(double a, double b);

// For `numaperf run ... -- PROGRAM ARGS`: parseAndRun hands CLI11 only the
// arguments before the first `--` and keeps the rest here (null when the
// command line had no `--` after `run`).
const std::vector<std::string>* argumentsAfterDashDash();

// The top-level application with the common settings.
void configureApp(CLI::App& app);

}  // namespace numaperf::cli
