// numaperf-counters: the counters command alone, for tests. The subcommand
// word is optional: `numaperf-counters -e task-clock -- true` is
// `numaperf counters -e task-clock -- true`.
#include <CLI/CLI.hpp>

#include <cstring>
#include <vector>

#include "cli/counters_command.h"

int main(int argc, char** argv) {
  CLI::App app{"numaperf counters"};
  app.require_subcommand(1);
  numaperf::cli::registerCountersCommand(app);
  std::vector<char*> args(argv, argv + argc);
  static char word[] = "counters";
  if (argc < 2 || std::strcmp(argv[1], "counters") != 0) args.insert(args.begin() + 1, word);
  CLI11_PARSE(app, static_cast<int>(args.size()), args.data());
  return 0;
}
