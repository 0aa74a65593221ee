// How the bwmodel commands (`bwmodel`, `placement`) end on bad input: one
// line `numaperf COMMAND: error: ...` on stderr and CLI::RuntimeError(2),
// which CLI11 turns into exit status 2; anything unexpected is an internal
// error with status 1.
#pragma once
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>

#include "bwmodel/error.h"

namespace numaperf::cli {

[[noreturn]] inline void failCommand(const char* command, const std::string& msg) {
  std::fprintf(stderr, "numaperf %s: error: %s\n", command, msg.c_str());
  throw CLI::RuntimeError(2);
}

template <class F>
void runReportingErrors(const char* command, F&& body) {
  try {
    body();
  } catch (const bwmodel::BwmodelError& e) {
    failCommand(command, e.what());
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "numaperf %s: internal error: %s\n", command, e.what());
    throw CLI::RuntimeError(1);
  }
}

}  // namespace numaperf::cli
