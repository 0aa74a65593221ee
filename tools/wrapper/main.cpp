// numaperf-clang / numaperf-clang++: drop-in compilers that build programs
// instrumented for numaperf. One binary; the C++ flavour is chosen by the
// name it is run as (argv[0] containing "++"). See driver_args.h for the
// argument rules.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "driver_args.h"

#ifndef NUMAPERF_DEFAULT_CC
#define NUMAPERF_DEFAULT_CC "clang"
#endif
#ifndef NUMAPERF_DEFAULT_CXX
#define NUMAPERF_DEFAULT_CXX "clang++"
#endif
#ifndef NUMAPERF_INSTALL_LIBDIR
#define NUMAPERF_INSTALL_LIBDIR "lib"
#endif

using namespace numaperf::wrapper;

namespace {

const char *g_tool = "numaperf-clang";

[[noreturn]] void die(int code, const std::string &msg) {
  std::fprintf(stderr, "%s: %s\n", g_tool, msg.c_str());
  std::exit(code);
}

// Reads a 0/1 switch; unset or empty means 0. Anything else is an error.
bool envSwitch(const char *name) {
  const char *v = std::getenv(name);
  if (!v || !*v || std::strcmp(v, "0") == 0) return false;
  if (std::strcmp(v, "1") == 0) return true;
  die(2, std::string("invalid value '") + v + "' for " + name + " (expected 0 or 1)");
}

std::string dirName(const std::string &p) {
  size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string baseName(const std::string &p) {
  size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string realPath(const std::string &p) {
  char buf[PATH_MAX];
  if (!realpath(p.c_str(), buf)) return std::string();
  return buf;
}

bool isFile(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Resolves a compiler name without a slash through PATH, like execvp.
std::string findProgram(const std::string &name) {
  if (name.find('/') != std::string::npos) return name;
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos
                                                                    : colon - start);
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/" + name;
    if (isFile(cand) && access(cand.c_str(), X_OK) == 0) return cand;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return name;  // execv then fails with ENOENT
}

std::string shellQuote(const std::string &s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789@%+=:,./-_") == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string firstExisting(const std::vector<std::string> &candidates) {
  for (const auto &c : candidates)
    if (isFile(c)) return c;
  return std::string();
}

std::string joinQuoted(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "'" : " or '") + x + "'";
  return s;
}

[[noreturn]] void run(const std::string &compiler, const std::vector<std::string> &args,
                      bool verbose, const char *mode) {
  std::vector<char *> argv;
  argv.push_back(const_cast<char *>(compiler.c_str()));
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  if (verbose) {
    std::string line;
    for (char *a : argv)
      if (a) line += (line.empty() ? "" : " ") + shellQuote(a);
    std::fprintf(stderr, "%s: [%s] %s\n", g_tool, mode, line.c_str());
  }
  execv(compiler.c_str(), argv.data());
  int err = errno;
  die(127, "cannot run '" + compiler + "': " + std::strerror(err));
}

}  // namespace

int main(int argc, char **argv) {
  const bool cxx = argc > 0 && baseName(argv[0]).find("++") != std::string::npos;
  g_tool = cxx ? "numaperf-clang++" : "numaperf-clang";

  const bool disabled = envSwitch("NUMAPERF_DISABLE");
  const bool verbose = envSwitch("NUMAPERF_WRAPPER_VERBOSE");

  const char *envName = cxx ? "NUMAPERF_CXX" : "NUMAPERF_CC";
  const char *chosen = std::getenv(envName);
  std::string compiler = findProgram(chosen && *chosen ? chosen
                                                       : cxx ? NUMAPERF_DEFAULT_CXX
                                                             : NUMAPERF_DEFAULT_CC);

  const std::string self = realPath("/proc/self/exe");
  const std::string real = realPath(compiler);
  if (!real.empty() && real == self)
    die(127, "cannot run '" + compiler + "': it is " + g_tool + " itself (check " +
                 envName + ")");

  std::vector<std::string> userArgs(argv + (argc > 0 ? 1 : 0), argv + argc);
  std::string filter, error;
  if (!takeWrapperOptions(&userArgs, &filter, &error)) die(2, error);
  if (disabled) run(compiler, userArgs, verbose, "disabled");
  if (!filter.empty()) {
    // The pass reads NUMAPERF_FILTER (clang parses -mllvm before it loads
    // -fpass-plugin, so an option of the plugin cannot be passed that way).
    // Absolute, so that a build that changes directory still finds it.
    std::string abs = realPath(filter);
    if (abs.empty() || !isFile(abs))
      die(1, "cannot read filter file '" + filter + "': " + std::strerror(errno ? errno : ENOENT));
    setenv("NUMAPERF_FILTER", abs.c_str(), 1);
  }

  const Analysis analysis = analyze(expandResponseFiles(userArgs));
  if (analysis.mode == Mode::PassThrough) run(compiler, userArgs, verbose, "pass-through");

  // The build tree mirrors the install tree: <prefix>/bin/<this>.
  const std::string prefix = dirName(dirName(self.empty() ? std::string(argv[0]) : self));
  std::vector<std::string> libDirs = {prefix + "/lib"};
  if (std::string(NUMAPERF_INSTALL_LIBDIR) != "lib")
    libDirs.push_back(prefix + "/" + NUMAPERF_INSTALL_LIBDIR);
  std::vector<std::string> pluginCands, runtimeCands;
  for (const auto &d : libDirs) {
    pluginCands.push_back(d + "/numaperf/NumaPerfPass.so");
    runtimeCands.push_back(d + "/libnumaperf.so");
  }
  Paths paths;
  paths.plugin = firstExisting(pluginCands);
  paths.runtime = firstExisting(runtimeCands);
  paths.runtimeDir = paths.runtime.empty() ? libDirs[0] : dirName(paths.runtime);
  paths.includeDir = prefix + "/include";

  const Plan p = plan(userArgs, analysis, paths);
  if (p.needsPlugin && paths.plugin.empty())
    die(1, "numaperf pass plugin not found (looked for " + joinQuoted(pluginCands) + ")");
  if (p.needsRuntime && paths.runtime.empty())
    die(1, "numaperf runtime not found (looked for " + joinQuoted(runtimeCands) + ")");
  for (const auto &w : p.warnings) std::fprintf(stderr, "%s: %s\n", g_tool, w.c_str());

  std::string mode = modeName(analysis.mode);
  if (analysis.mode == Mode::Link) {
    switch (analysis.link) {
      case LinkKind::Executable: mode += ":executable"; break;
      case LinkKind::Shared: mode += analysis.zDefs ? ":shared-zdefs" : ":shared"; break;
      case LinkKind::Relocatable: mode += ":relocatable"; break;
      case LinkKind::Static: mode += ":static"; break;
      case LinkKind::None: break;
    }
  }
  run(compiler, p.args, verbose, mode.c_str());
}
