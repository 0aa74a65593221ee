#include "analysis/report_builder.h"

#include "analysis/bandwidth_signature.h"
#include "analysis/instrumentation_summary.h"
#include "analysis/issue_classifier.h"
#include "analysis/site_aggregation.h"
#include "analysis/thread_analysis.h"
#include "common/log.h"
#include "common/memory_budget.h"
#include "common/stderr_identity.h"
#include "core/mapping_registry.h"
#include "core/mempolicy_registry.h"
#include "core/object_registry.h"
#include "core/line_windows.h"
#include "core/page_sampling.h"
#include "core/overhead_meter.h"
#include "core/thread_registry.h"
#include "report/atomic_write.h"
#include "report/json_io.h"
#include "report/number_format.h"
#include "report/remote_cost.h"
#include "report/text_render.h"
#include "symbolize/module_snapshot.h"
#include "symbolize/symbolizer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace numaperf {
namespace {

struct ProcessInfo {
  std::vector<std::string> command;
  std::string program_name;
  std::string start_directory;
};
ProcessInfo *g_process = nullptr;

std::vector<std::string> readCommandLine() {
  std::vector<std::string> args;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return args;
  std::string data;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) data.append(buf, size_t(n));
  close(fd);
  size_t pos = 0;
  while (pos < data.size()) {
    size_t end = data.find('\0', pos);
    if (end == std::string::npos) end = data.size();
    args.push_back(data.substr(pos, end - pos));
    pos = end + 1;
  }
  return args;
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string absolute(const std::string &path) {
  if (path.empty() || path[0] == '/' || !g_process) return path;
  return g_process->start_directory + "/" + path;
}

// numaperf-<program>-<pid>.<extension>: a forked child is its own run.
std::string defaultName(const char *extension) {
  return "numaperf-" + g_process->program_name + "-" + std::to_string(getpid()) + "." +
         extension;
}

std::string jsonPath(const RuntimeConfig &config) {
  std::string name = defaultName("json");
  if (config.json_path.empty()) return absolute(name);
  std::string path = absolute(config.json_path);
  if (isDirectory(path)) return path + "/" + name;
  return path;
}

// Sets the time access scores are per (docs/scores.md, "Score time").
void scoreTime(const RuntimeConfig &config, double basis_ms, report::Profile *profile) {
  report::ProgramInfo &prog = profile->program;
  prog.score_ms = basis_ms;
  HookTimeEstimate hooks = estimateHookTime();
  if (!hooks.measured) return;
  prog.hook_time_share = hooks.hookShare();
  if (!config.score_native_time) return;
  prog.score_ms = nativeEquivalentMs(basis_ms, hooks);
  if (prog.hook_time_share >= 0.005)
    profile->notes.push_back(
        "access scores are per ms of the program's own time: " +
        report::formatFixed(prog.score_ms, 1) + " of " + report::formatFixed(basis_ms, 1) +
        " ms, less the " + report::formatFixed(100 * prog.hook_time_share, 1) +
        "% of the threads' running time measured in numaperf's hooks and allocation tracking "
        "(NUMAPERF_SCORE_TIME=wall: per wall ms)");
}

report::Profile buildProfile(const RuntimeConfig &config, uint64_t start_ns,
                             uint64_t end_ns) {
  report::Profile profile;
  profile.program.command = g_process->command;
  profile.program.pid = getpid();
  profile.program.wall_ms = double(end_ns - start_ns) / 1e6;
  uint64_t total_accesses = 0, total_remote = 0;
  // The report reads a fixed set of records and folded totals.
  threadRegistry().stopFolding();
  threadRegistry().forEach([&](const ThreadState &t) {
    total_accesses += t.accesses;
    total_remote += t.remote_accesses;
  });
  threadRegistry().forEachFolded([&](const FoldedThreads &g) {
    total_accesses += g.accesses;
    total_remote += g.remote_accesses;
  });
  profile.program.threads = threadRegistry().threadCount();
  profile.program.total_accesses = total_accesses;
  profile.program.access_data = total_accesses > 0;
  profile.thresholds["remote_access"] = config.remote_threshold;
  profile.thresholds["false_sharing"] = config.false_sharing_threshold;
  profile.thresholds["true_sharing"] = config.true_sharing_threshold;
  profile.thresholds["sharing_share"] = config.sharing_share;
  profile.thresholds["sharing_hot_rate"] = config.sharing_hot_rate;
  profile.thresholds["word_detail_writes"] = config.word_detail_writes;
  profile.thresholds["page_detail_remote_accesses"] = config.page_detail_threshold;
  profile.thresholds["page_sample_rate"] = config.page_sample_rate;
  profile.thresholds["page_sample_min_kib"] = config.page_sample_min_kib;
  profile.thresholds["page_sample_site_objects"] = config.page_sample_site_objects;
  profile.thresholds["line_window_rate"] = lineWindowRate();

  // Counts still buffered by threads (shared_page_cache.h). Threads still
  // running at exit may race with this; their last pages' counts may be off.
  threadRegistry().forEach([](ThreadState &t) {
    flushThreadCounts(t);
    flushAllocationCounts(t);
  });
  // Mappings before heap blocks: a dead block-map entry (freed before
  // anything was profiled, ObjectRegistry::skipsUnprofiledFree) must not take
  // counts of a mapping later placed where the allocator's heap once was.
  mappingRegistry().foldAll();
  objectRegistry().foldAll();
  if (uint64_t away = pagesSampledAway())
    profile.notes.push_back(
        "sampled: " + std::to_string(away) + " shared pages of objects of " +
        std::to_string(config.page_sample_min_kib) +
        " KiB or more, or packed with blocks of sites of " +
        std::to_string(config.page_sample_site_objects) +
        " objects or more, were left out of the model (1 in " +
        std::to_string(config.page_sample_rate) +
        " is modelled in full); their sites' counts are estimates, marked pages_sampled_away "
        "(NUMAPERF_SAMPLE_PAGES=1: exact counts)");
  if (uint64_t lines = linesSampledInWindows())
    profile.notes.push_back(
        "sampled: " + std::to_string(lines) +
        " cache lines that threads kept taking from each other were modelled in 1 time window "
        "in " + std::to_string(lineWindowRate()) +
        " once their verdict was settled; their objects' invalidations and remote accesses are "
        "estimates, marked lines_sampled_in_windows (NUMAPERF_SAMPLE_LINE_WINDOWS=1: exact "
        "counts)");
  symbolize::Symbolizer symbolizer(symbolize::snapshotModules());
  profile.instrumentation = summarizeInstrumentation(start_ns, end_ns);
  ScoringContext context;
  // Accesses are only seen while profiling is on: their rates are per ms
  // of profiled time (docs/switching.md), less the time the hooks took.
  const report::Instrumentation &in = *profile.instrumentation;
  double basis_ms = profile.program.wall_ms;
  if (!in.always_on && in.profiled_ms > 0) {
    basis_ms = in.profiled_ms;
    profile.notes.push_back("profiling was on for " + report::formatFixed(in.profiled_ms, 1) +
                            " of " + report::formatFixed(profile.program.wall_ms, 1) +
                            " ms; access scores are per ms of profiled time");
  }
  scoreTime(config, basis_ms, &profile);
  context.wall_ms = profile.program.score_ms;
  context.total_accesses = total_accesses;
  context.threads = profile.program.threads;
  context.remote_threshold = config.remote_threshold;
  context.false_sharing_threshold = config.false_sharing_threshold;
  context.true_sharing_threshold = config.true_sharing_threshold;
  context.sharing_hot_rate = config.sharing_hot_rate;
  context.symbolizer = &symbolizer;
  uint64_t attributed = 0;
  std::vector<ObjectTotals> objects = collectObjectTotals(symbolizer, 4 * config.stack_depth);
  // The threads counted every access to a page sampled away as remote; the
  // objects' estimates are what the program total should hold instead
  // (docs/sampling.md).
  uint64_t counted = 0, estimated = 0;
  for (const ObjectTotals &t : objects) {
    counted += t.profile.sampled_away_counted;
    estimated += t.profile.sampled_away_estimated;
  }
  total_remote = total_remote - std::min(total_remote, counted) + estimated;
  context.total_remote = total_remote;
  for (ObjectTotals &t : objects) {
    attributed += t.profile.remote;
    classifyObject(t.object, t.profile, context, &profile.issues);
  }
  profile.signature = buildBandwidthSignature(objects);
  if (uint64_t dropped = droppedPolicyRanges())
    profile.notes.push_back(std::to_string(dropped) +
                            " memory-policy ranges were not recorded (registry full): the "
                            "bandwidth signature may miss interleaved pages");
  rankIssues(&profile.issues);
  // Thread issues (migration, imbalance) follow the data issues; thresholds
  // NUMAPERF_MIGRATION_THRESHOLD / NUMAPERF_IMBALANCE_RATIO (docs/threads.md).
  appendThreadAnalysis(profile, start_ns, end_ns, symbolizer);

  if (!config.calibration_path.empty()) {
    std::string error;
    if (auto cost = report::readRemoteCost(absolute(config.calibration_path), &error)) {
      report::addRemoteCostEstimates(profile, *cost);
    } else {
      logMessage("NUMAPERF_CALIBRATION: %s", error.c_str());
      profile.notes.push_back("no time estimate: " + error);
    }
  }

  profile.program.memory_limit_mib = config.memory_limit_mib;
  profile.program.detail_dropped = detailAllocationsDropped();
  if (profile.program.detail_dropped > 0)
    profile.notes.push_back(
        "runtime memory limit reached (NUMAPERF_MEMORY_LIMIT=" +
        std::to_string(config.memory_limit_mib) + " MiB): " +
        std::to_string(profile.program.detail_dropped) +
        " page/line/word detail allocations were dropped, so sharing detail and "
        "remote counts of pages shared late are undercounted");
  if (!profile.program.access_data && !in.always_on && in.profiled_ms <= 0)
    profile.notes.push_back(
        "profiling was never switched on (NUMAPERF_ACTIVE, NUMAPERF_ACTIVE_REGIONS, "
        "numaperf_start): no access data");
  else if (!profile.program.access_data)
    profile.notes.push_back(
        "no instrumented memory access ran: build the program with numaperf-clang / "
        "numaperf-clang++ to get access data");
  if (total_remote > attributed && total_remote - attributed > total_remote / 100)
    profile.notes.push_back(
        std::to_string(total_remote - attributed) +
        " predicted remote accesses fell outside tracked heap objects and globals "
        "(stack, mmap or untracked memory)");
  return profile;
}

void writeText(const RuntimeConfig &config, const report::Profile &profile) {
  if (config.report_path == "none") return;
  report::TextOptions options;
  bool to_stderr = config.report_path.empty() || config.report_path == "-";
  std::string path = absolute(config.report_path);
  // The program closed fd 2 or made it one of its own files: never write
  // into it; the report goes to numaperf-<program>-<pid>.txt instead.
  if (to_stderr && !stderrIsOriginal()) {
    to_stderr = false;
    path = absolute(defaultName("txt"));
  }
  options.color = to_stderr && isatty(2) && getenv("NO_COLOR") == nullptr;
  std::string text = report::renderText(profile, options);
  if (to_stderr) {
    const char *p = text.data();
    size_t left = text.size();
    while (left > 0) {
      ssize_t w = write(2, p, left);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      p += w;
      left -= size_t(w);
    }
    return;
  }
  std::string error;
  if (!report::writeFileAtomically(path, text, &error))
    logMessage("cannot write the report to %s: %s", path.c_str(), error.c_str());
}

void writeJson(const RuntimeConfig &config, const report::Profile &profile) {
  if (config.json_path == "none") return;
  std::string path = jsonPath(config);
  std::string error;
  if (!report::writeFileAtomically(path, report::toJson(profile).dump(2) + "\n", &error))
    logMessage("cannot write the profile to %s: %s", path.c_str(), error.c_str());
}

}  // namespace

void captureProcessInfo() {
  g_process = new ProcessInfo();
  g_process->command = readCommandLine();
  g_process->program_name =
      g_process->command.empty() ? "program" : baseName(g_process->command[0]);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) g_process->start_directory = cwd;
}

void writeReport(const RuntimeConfig &config, uint64_t start_ns, uint64_t end_ns) {
  try {
    report::Profile profile = buildProfile(config, start_ns, end_ns);
    writeText(config, profile);
    writeJson(config, profile);
  } catch (const std::exception &e) {
    logMessage("internal error while writing the report: %s", e.what());
  }
}

}  // namespace numaperf
