// numaperf run [options] -- PROGRAM ARGS: runs a program under the runtime.
// Options become the runtime's NUMAPERF_* environment variables; programs not
// built with numaperf-clang get the runtime through LD_PRELOAD (allocation
// and thread data, no access data). Exits with the program's status
// (128+N when it died of signal N; 127 not found, 126 not executable).
#include "cli_common.h"
#include "commands.h"
#include "elf_needed.h"

#include "report/html_render.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <limits.h>
#include <memory>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace numaperf::cli {

namespace {

struct RunOptions {
  std::string output_dir;
  std::string json;
  std::string report;
  std::string html;
  std::string remote_threshold;
  unsigned stack_depth = 0;
  std::string preload = "auto";
  std::vector<std::string> command;
};

pid_t g_child = -1;

void forwardSignal(int sig) {
  if (g_child > 0) kill(g_child, sig);
}

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string dirName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool isExecutableFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// Like execvp's search: a name with a '/' is used as is, otherwise PATH.
std::string findProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  for (;;) {
    size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (isExecutableFile(candidate)) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return std::string();
}

// ../lib/libnumaperf.so relative to this executable (build and install
// trees have the same layout).
std::string runtimePath() {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return std::string();
  self[n] = '\0';
  std::string candidate = dirName(dirName(self)) + "/lib/libnumaperf.so";
  char real[PATH_MAX];
  if (realpath(candidate.c_str(), real) == nullptr) return candidate;
  return real;
}

bool makeDirs(const std::string& dir, std::string* error) {
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    partial = dir.substr(0, pos);
    if (partial.empty()) continue;
    if (mkdir(partial.c_str(), 0777) != 0 && errno != EEXIST) {
      *error = partial + ": " + std::strerror(errno);
      return false;
    }
  }
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = dir + ": not a directory";
    return false;
  }
  return true;
}

std::string defaultJsonPath(const std::string& dir, const std::string& program, pid_t pid) {
  return (dir.empty() ? std::string(".") : dir) + "/numaperf-" + program + "-" +
         std::to_string(pid) + ".json";
}

void renderHtmlAfterRun(const std::string& json_path, const std::string& html_path) {
  std::string error;
  std::optional<LoadedProfile> loaded = loadProfile(json_path, &error);
  if (!loaded) {
    message("no HTML report: " + error);
    return;
  }
  report::HtmlOptions h;
  h.raw = &loaded->raw;
  try {
    writeOutput(html_path, report::renderHtml(loaded->profile, h));
  } catch (const CLI::RuntimeError&) {
    return;  // message already printed; the program's status is kept
  }
}

void runRun(const RunOptions& o) {
  double threshold = 0;
  if (!o.remote_threshold.empty() && (!parseFinite(o.remote_threshold, &threshold) || threshold < 0))
    finish(kExitUsage, "--remote-threshold: expected a finite number >= 0, got '" +
                           o.remote_threshold + "'");
  if (o.command.empty()) finish(kExitUsage, "run: no program given (numaperf run [options] -- PROGRAM ARGS)");
  if (!o.html.empty() && o.json == "none")
    finish(kExitUsage, "--html needs the JSON profile; do not combine it with --json none");
  if (parseOnly()) return;

  const std::string program = findProgram(o.command[0]);
  if (program.empty() || access(program.c_str(), F_OK) != 0)
    finish(127, o.command[0] + ": program not found");
  if (!isExecutableFile(program)) finish(126, program + ": not an executable file");

  std::string error;
  if (!o.output_dir.empty() && !makeDirs(o.output_dir, &error))
    finish(kExitUsage, "--output-dir: cannot create " + error);

  // Does the program load the runtime itself?
  bool preload = o.preload == "always";
  if (o.preload == "auto") {
    ElfInfo elf;
    if (!readElfInfo(program, &elf, &error)) finish(126, error);
    if (elf.kind == ElfKind::kDynamic && !needsRuntime(elf)) {
      preload = true;
      note(baseName(program) + " was not built with numaperf-clang: preloading the runtime "
           "(allocations and threads are recorded, memory accesses are not)");
    } else if (elf.kind == ElfKind::kStatic) {
      note(baseName(program) + " is statically linked: the runtime cannot be preloaded");
    } else if (elf.kind == ElfKind::kNotElf) {
      note(baseName(program) + " is not an ELF executable: running it without preloading the "
           "runtime (use --preload always to preload it into everything it starts)");
    }
  }
  std::string runtime;
  if (preload) {
    runtime = runtimePath();
    if (runtime.empty() || access(runtime.c_str(), R_OK) != 0)
      finish(kExitUsage, "runtime library not found at " +
                             (runtime.empty() ? std::string("../lib/libnumaperf.so") : runtime));
  }

  std::string html_json;  // where the parent finds the profile for --html
  const std::string prog_name = baseName(o.command[0]);
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0) finish(kExitUsage, std::string("cannot start the program: ") + std::strerror(errno));
  if (child == 0) {
    // The runtime reads these once at start-up.
    if (!o.report.empty()) setenv("NUMAPERF_REPORT", o.report.c_str(), 1);
    if (!o.json.empty()) {
      setenv("NUMAPERF_JSON", o.json.c_str(), 1);
    } else if (!o.html.empty() || !o.output_dir.empty()) {
      setenv("NUMAPERF_JSON", defaultJsonPath(o.output_dir, prog_name, getpid()).c_str(), 1);
    }
    if (!o.remote_threshold.empty()) setenv("NUMAPERF_REMOTE_THRESHOLD", o.remote_threshold.c_str(), 1);
    if (o.stack_depth > 0) setenv("NUMAPERF_STACK_DEPTH", std::to_string(o.stack_depth).c_str(), 1);
    if (preload) {
      const char* old = std::getenv("LD_PRELOAD");
      std::string value = runtime + (old && *old ? std::string(":") + old : std::string());
      setenv("LD_PRELOAD", value.c_str(), 1);
    }
    std::vector<char*> argv;
    for (const std::string& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    int err = errno;
    std::string line = "numaperf: cannot execute " + program + ": " + std::strerror(err) + "\n";
    ssize_t ignored = write(2, line.data(), line.size());
    (void)ignored;
    _exit(err == ENOENT ? 127 : 126);
  }
  g_child = child;
  // Terminal signals reach the program directly; the ones sent to us are
  // passed on, so the program can still write its report.
  struct sigaction ignore {}, forward {}, old_int {}, old_quit {}, old_term {}, old_hup {};
  ignore.sa_handler = SIG_IGN;
  forward.sa_handler = forwardSignal;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  sigaction(SIGTERM, &forward, &old_term);
  sigaction(SIGHUP, &forward, &old_hup);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      status = -1;
      break;
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  int code = kExitUsage;
  if (status != -1 && WIFEXITED(status)) code = WEXITSTATUS(status);
  if (status != -1 && WIFSIGNALED(status)) code = 128 + WTERMSIG(status);

  if (!o.html.empty() && code != 126 && code != 127) {
    html_json = !o.json.empty() ? o.json : defaultJsonPath(o.output_dir, prog_name, child);
    renderHtmlAfterRun(html_json, o.html);
  }
  if (code != 0) finish(code);
}

}  // namespace

void registerRunCommand(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand(
      "run", "Run a program under the profiler: numaperf run [options] -- PROGRAM ARGS");
  sub->add_option("-d,--output-dir", o->output_dir,
                  "Directory for the JSON profile (numaperf-PROGRAM-PID.json); created if needed");
  sub->add_option("--json", o->json,
                  "JSON profile file, or a directory for the default name; none = no profile");
  sub->add_option("--report", o->report,
                  "Text report file instead of standard error; none = no text report");
  sub->add_option("--html", o->html, "Also render the profile as an HTML page to FILE after the run");
  sub->add_option("--remote-threshold", o->remote_threshold,
                  "Remote-access score threshold (remote accesses per ms; default 1500)");
  sub->add_option("--stack-depth", o->stack_depth, "Frames kept per allocation stack (1-64)")
      ->check(CLI::Range(1u, 64u));
  sub->add_option("--preload", o->preload,
                  "Preload libnumaperf.so: auto = when the program was not built with "
                  "numaperf-clang")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  // Everything from the first positional argument (or after --) is the
  // program's command line, options included.
  sub->prefix_command();
  sub->footer(
      "Exit status: the program's own (128+N when it died of signal N); 127 program not found, "
      "126 not executable, 2 bad options.\n"
      "Programs not built with numaperf-clang get allocation and thread data but no access "
      "data; the report says so.");
  sub->callback([o, sub] {
    // parseAndRun takes everything after `--` out before CLI11 sees it;
    // without `--` the command starts at the first positional argument.
    o->command = sub->remaining();
    const bool option_first = !o->command.empty() && o->command.front().size() > 1 &&
                              o->command.front()[0] == '-';
    if (option_first)
      finish(kExitUsage, "run: unknown option " + o->command.front() +
                             " (the program's options go after PROGRAM or --)");
    if (const std::vector<std::string>* after = argumentsAfterDashDash()) {
      // `run PROGRAM a -- b`: that -- is the program's own.
      if (!o->command.empty()) o->command.push_back("--");
      o->command.insert(o->command.end(), after->begin(), after->end());
    }
    runRun(*o);
  });
}

}  // namespace numaperf::cli
