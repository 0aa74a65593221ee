// numaperf-bwmodel: the bwmodel command alone, for tests. The subcommand
// word is optional: `numaperf-bwmodel --placement 3,1 ...` is
// `numaperf bwmodel --placement 3,1 ...`.
#include <CLI/CLI.hpp>

#include <cstring>
#include <vector>

#include "cli/bwmodel_command.h"

int main(int argc, char** argv) {
  CLI::App app{"numaperf bandwidth model"};
  app.require_subcommand(1);
  numaperf::cli::registerBwmodelCommand(app);
  std::vector<char*> args(argv, argv + argc);
  static char word[] = "bwmodel";
  if (argc < 2 || std::strcmp(argv[1], "bwmodel") != 0) args.insert(args.begin() + 1, word);
  CLI11_PARSE(app, static_cast<int>(args.size()), args.data());
  return 0;
}
