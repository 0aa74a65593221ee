// Fuzzes the command line of `numaperf`: one argument per input line. Runs
// in parse-only mode, so no file is read or written and nothing is started.
#include "cli_common.h"
#include "commands.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"numaperf"};
  std::string current;
  for (size_t i = 0; i < size && args.size() < 64; ++i) {
    char c = static_cast<char>(data[i]);
    if (c == '\n') {
      args.push_back(current);
      current.clear();
    } else if (c != '\0') {
      current += c;
    }
  }
  if (!current.empty() && args.size() < 64) args.push_back(current);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);

  numaperf::cli::setParseOnly(true);
  CLI::App app;
  numaperf::cli::configureApp(app);
  numaperf::cli::registerBuiltinCommands(app);
  int code = numaperf::cli::parseAndRun(app, static_cast<int>(args.size()), argv.data());
  if (code != 0 && code != 2) std::abort();  // parse-only: ok or usage error
  return 0;
}
