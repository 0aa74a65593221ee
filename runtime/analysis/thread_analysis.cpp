#include "analysis/thread_analysis.h"

#include "analysis/thread_metrics.h"
#include "common/env_config.h"
#include "common/log.h"
#include "core/profiling_switch.h"
#include "core/runtime_state.h"
#include "core/thread_registry.h"
#include "interception/thread_counters.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace numaperf {
namespace {

ThreadAnalysisConfig g_thread_config;

void readDouble(const char *name, double min, double max, double *value) {
  const char *text = getenv(name);
  if (text && !parseDouble(text, min, max, value))
    logMessage("%s='%s' is not a number in [%g, %g]; using %g", name, text, min, max, *value);
}

void readUnsigned(const char *name, uint64_t min, uint64_t max, uint64_t *value) {
  const char *text = getenv(name);
  if (text && !parseUnsigned(text, min, max, value))
    logMessage("%s='%s' is not a whole number in [%llu, %llu]; using %llu", name, text,
               (unsigned long long)min, (unsigned long long)max,
               (unsigned long long)*value);
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool isOpenMPRuntime(const std::string &module) {
  std::string b = baseName(module);
  return b.rfind("libgomp", 0) == 0 || b.rfind("libomp", 0) == 0 ||
         b.rfind("libiomp", 0) == 0;
}

// The type of a thread: "main", "OpenMP worker", its start routine's name,
// or module+offset when the routine has no symbol.
class TypeNamer {
 public:
  explicit TypeNamer(symbolize::Symbolizer &s) : symbolizer_(s) {}
  std::string name(const ThreadState &t) { return name(t.start_routine, t.index == 0); }
  std::string name(void *start_routine, bool is_main) {
    if (!start_routine) return is_main ? "main" : "(not created by pthread_create)";
    uint64_t pc = reinterpret_cast<uint64_t>(start_routine);
    auto it = cache_.find(pc);
    if (it != cache_.end()) return it->second;
    report::Frame f = symbolizer_.symbolize(pc, false);
    std::string n;
    if (isOpenMPRuntime(f.module)) {
      n = "OpenMP worker";
    } else if (!f.location.function.empty()) {
      n = f.location.function;
    } else {
      char buf[32];
      snprintf(buf, sizeof buf, "+0x%llx", (unsigned long long)f.module_offset);
      n = (f.module.empty() ? std::string("?") : baseName(f.module)) + buf;
    }
    cache_.emplace(pc, n);
    return n;
  }

 private:
  symbolize::Symbolizer &symbolizer_;
  std::map<uint64_t, std::string> cache_;
};

// One thread's record, or (folded > 0) the totals of `folded` finished
// threads of one type whose records were folded (thread_registry.h); those
// span from the first one's start to the last one's end. `profiled`: the
// part of that span profiling covered (profiledSpan), none when the
// thread(s) ran only while profiling was off.
struct Snapshot {
  report::ThreadRecord record;
  uint64_t start_ns = 0, end_ns = 0;
  std::optional<Interval> profiled;
  uint64_t folded = 0;
  uint64_t events() const { return record.contentions + record.waits; }
  uint64_t threads() const { return folded ? folded : 1; }
};

uint64_t threadTotal(const std::vector<Snapshot> &threads) {
  uint64_t n = 0;
  for (const Snapshot &s : threads) n += s.threads();
  return n;
}

std::vector<std::pair<std::string, uint64_t>> named(const std::vector<std::string> &names,
                                                    const std::vector<uint64_t> &counts) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (size_t i = 0; i < names.size(); ++i) out.emplace_back(names[i], counts[i]);
  return out;
}

nlohmann::json countsObject(const std::vector<std::pair<std::string, uint64_t>> &counts) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto &[name, n] : counts) j[name] = n;
  return j;
}

void addMigrationIssue(report::Profile &profile, const std::vector<Snapshot> &threads,
                       double p, double run_seconds) {
  const ThreadAnalysisConfig &config = g_thread_config;
  uint64_t contentions = 0, cond = 0, barrier = 0, sem = 0, events = 0;
  int64_t observed = 0;
  bool observed_any = false;
  for (const Snapshot &s : threads) {
    contentions += s.record.contentions;
    cond += s.record.cond_waits;
    barrier += s.record.barrier_waits;
    sem += s.record.sem_waits;
    events += s.events();
    if (s.record.observed_migrations) {
      observed += int64_t(*s.record.observed_migrations);
      observed_any = true;
    }
  }
  report::Issue issue;
  issue.kind = "thread_migration";
  const uint64_t thread_count = threadTotal(threads);
  issue.score = migrationScore(p, events, run_seconds, thread_count);
  issue.normalized_score =
      migrationNormalizedScore(p, events, profile.program.total_accesses);
  issue.threshold = config.migration_threshold;
  if (events == 0 || issue.score < issue.threshold) return;
  issue.fix = "thread_binding";
  nlohmann::json &e = issue.evidence;
  e["possible_migrations"] = events;
  e["lock_contentions"] = contentions;
  e["cond_waits"] = cond;
  e["barrier_waits"] = barrier;
  e["sem_waits"] = sem;
  e["parallel_phase"] = p;
  e["run_seconds"] = run_seconds;
  e["threads"] = thread_count;
  // The busiest threads by possible migrations (all of them are in the
  // profile's top-level `threads`).
  std::vector<const Snapshot *> order;
  for (const Snapshot &s : threads)
    if (!s.folded) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](const Snapshot *a, const Snapshot *b) {
    return a->events() > b->events();
  });
  nlohmann::json busiest = nlohmann::json::object();
  for (size_t i = 0; i < order.size() && i < 8 && order[i]->events() > 0; ++i)
    busiest["thread " + std::to_string(order[i]->record.index) + " (" +
            order[i]->record.type + ")"] = order[i]->events();
  e["possible_migrations_by_thread"] = std::move(busiest);
  if (observed_any)
    e["observed_migrations_on_this_machine"] = observed;
  profile.issues.push_back(std::move(issue));
}

void addImbalance(report::Profile &profile, const std::vector<Snapshot> &threads) {
  const ThreadAnalysisConfig &config = g_thread_config;
  std::vector<std::string> names;
  std::vector<uint64_t> type_threads, type_accesses;
  std::vector<std::vector<const Snapshot *>> members;
  std::vector<std::vector<Interval>> lifetimes;  // of members, in order
  std::vector<std::vector<Interval>> spans;      // ... and of folded threads
  std::map<std::string, size_t> position;
  report::Imbalance im;
  uint64_t worker_accesses = 0;
  for (const Snapshot &s : threads) {
    if (s.record.type == "main") {
      im.main_thread_accesses += s.record.accesses;
      continue;
    }
    // Accesses are counted only while profiled: a thread that ran only
    // while profiling was off did no less work, it was not watched.
    if (!s.profiled) continue;
    auto [it, added] = position.emplace(s.record.type, names.size());
    if (added) {
      names.push_back(s.record.type);
      type_threads.push_back(0);
      type_accesses.push_back(0);
      members.emplace_back();
      lifetimes.emplace_back();
      spans.emplace_back();
    }
    size_t k = it->second;
    type_threads[k] += s.threads();
    type_accesses[k] += s.record.accesses;
    spans[k].push_back(*s.profiled);
    if (!s.folded) {  // folded threads are not compared one by one
      members[k].push_back(&s);
      lifetimes[k].push_back(*s.profiled);
    }
    worker_accesses += s.record.accesses;
  }
  if (names.empty()) return;

  std::vector<double> shares = sharesOf(type_accesses);
  uint64_t workers = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    im.types.push_back({names[i], type_threads[i], type_accesses[i], shares[i]});
    workers += type_threads[i];
  }
  // Only types that run at the same time compete for the machine: types in
  // different phases of the program (never alive together) are not compared
  // and their threads are not traded against each other.
  std::vector<uint64_t> suggested(names.size(), 0), requested(names.size(), 0);
  im.ratio = 1;
  struct Group {
    std::vector<size_t> types;
    std::vector<double> shares;
    std::vector<uint64_t> suggested, requested;
    uint64_t threads = 0, accesses = 0;
    double ratio = 1;
  };
  std::vector<Group> groups;
  for (const std::vector<size_t> &members_of : concurrentGroups(spans)) {
    Group g;
    g.types = members_of;
    std::vector<uint64_t> acc, thr;
    for (size_t k : members_of) {
      acc.push_back(type_accesses[k]);
      thr.push_back(type_threads[k]);
      g.threads += type_threads[k];
      g.accesses += type_accesses[k];
    }
    g.shares = sharesOf(acc);
    g.ratio = perThreadRatio(acc, thr);
    g.suggested = suggestThreads(g.shares, g.threads);
    if (config.suggest_threads > 0) g.requested = suggestThreads(g.shares, config.suggest_threads);
    for (size_t j = 0; j < members_of.size(); ++j) {
      suggested[members_of[j]] = g.suggested[j];
      if (config.suggest_threads > 0) requested[members_of[j]] = g.requested[j];
    }
    im.ratio = std::max(im.ratio, g.ratio);
    groups.push_back(std::move(g));
  }
  im.suggested_total = workers;
  im.suggested = named(names, suggested);
  if (config.suggest_threads > 0) {
    im.requested_total = config.suggest_threads;
    im.suggested_for_requested = named(names, requested);
  }
  profile.imbalance = im;
  if (worker_accesses < config.min_accesses) return;

  // Between types running together.
  for (const Group &g : groups) {
    if (g.types.size() < 2 || g.accesses < config.min_accesses ||
        !(g.ratio > config.imbalance_ratio))
      continue;
    report::Issue issue;
    issue.kind = "load_imbalance";
    issue.score = g.ratio;
    issue.normalized_score = g.ratio;
    issue.threshold = config.imbalance_ratio;
    issue.fix = "adjust_threads";
    nlohmann::json &e = issue.evidence;
    e["scope"] = "thread types";
    e["accesses_per_thread_ratio"] = g.ratio;
    nlohmann::json types = nlohmann::json::object();
    nlohmann::json req = nlohmann::json::object();
    for (size_t j = 0; j < g.types.size(); ++j) {
      size_t k = g.types[j];
      types[names[k]] = {{"threads", type_threads[k]},
                         {"share", g.shares[j]},
                         {"suggested_threads", g.suggested[j]}};
      if (config.suggest_threads > 0) req[names[k]] = g.requested[j];
    }
    e["types"] = std::move(types);
    e["suggested_total"] = g.threads;
    if (config.suggest_threads > 0) {
      e["requested_total"] = config.suggest_threads;
      e["suggested_for_requested"] = std::move(req);
    }
    profile.issues.push_back(std::move(issue));
  }

  // Within one type: threads alive together doing very different amounts
  // of work. Threads of one type in different phases (a pool made anew for
  // each phase) are not compared: each set of threads running together is
  // judged on its own, and the most imbalanced one reported.
  for (size_t i = 0; i < names.size(); ++i) {
    if (members[i].size() < 2 || type_accesses[i] < config.min_accesses ||
        type_accesses[i] < worker_accesses / 10)
      continue;
    std::vector<std::vector<Interval>> single;
    for (const Interval &life : lifetimes[i]) single.push_back({life});
    const Snapshot *lo = nullptr, *hi = nullptr;
    double ratio = 0;
    for (const std::vector<size_t> &together : concurrentGroups(single)) {
      if (together.size() < 2) continue;
      const Snapshot *l = nullptr, *h = nullptr;
      for (size_t j : together) {
        const Snapshot *s = members[i][j];
        if (!l || s->record.accesses < l->record.accesses) l = s;
        if (!h || s->record.accesses > h->record.accesses) h = s;
      }
      double r = double(h->record.accesses) / double(std::max<uint64_t>(1, l->record.accesses));
      if (r > ratio) ratio = r, lo = l, hi = h;
    }
    if (!lo || !(ratio > config.imbalance_ratio)) continue;
    report::Issue issue;
    issue.kind = "load_imbalance";
    issue.score = ratio;
    issue.normalized_score = ratio;
    issue.threshold = config.imbalance_ratio;
    issue.fix = "balance_work";
    nlohmann::json &e = issue.evidence;
    e["scope"] = "threads of one type";
    e["type"] = names[i];
    e["threads"] = type_threads[i];
    e["busiest_thread"] = {{"index", hi->record.index}, {"accesses", hi->record.accesses}};
    e["least_busy_thread"] = {{"index", lo->record.index}, {"accesses", lo->record.accesses}};
    e["mean_accesses"] = double(type_accesses[i]) / double(type_threads[i]);
    profile.issues.push_back(std::move(issue));
  }
}

// A thread's (or a group of folded threads') accesses and waits, as the
// report shows them.
template <typename Counts>
void copySyncCounts(const Counts &c, report::ThreadRecord *r) {
  r->accesses = c.accesses;
  r->contentions = c.lock_contentions;
  r->cond_waits = c.cond_waits;
  r->barrier_waits = c.barrier_waits;
  r->sem_waits = c.sem_waits;
  r->waits = r->cond_waits + r->barrier_waits + r->sem_waits;
}

}  // namespace

const ThreadAnalysisConfig &threadAnalysisConfig() { return g_thread_config; }

void appendThreadAnalysis(report::Profile &profile, uint64_t start_ns, uint64_t end_ns,
                          symbolize::Symbolizer &symbolizer) {
  const ThreadAnalysisConfig &config = g_thread_config;
  profile.thresholds["thread_migration"] = config.migration_threshold;
  profile.thresholds["imbalance_ratio"] = config.imbalance_ratio;
  collectMigrationCounters();

  TypeNamer namer(symbolizer);
  // The profiled periods, to clip lifetimes to (none needed when profiling
  // covered the whole run).
  const SwitchSummary switches = profilingSwitchSummary(start_ns, end_ns);
  std::vector<Interval> periods;
  for (const ProfiledPeriod &p : switches.periods) periods.push_back({p.start_ns, p.end_ns});
  auto profiled = [&](uint64_t from, uint64_t to) -> std::optional<Interval> {
    if (switches.always_on) return Interval{from, to};
    return profiledSpan({from, to}, periods);
  };
  uint64_t unprofiled = 0;
  std::vector<Snapshot> threads;
  std::vector<Interval> intervals;
  uint64_t still_running = 0;
  threadRegistry().forEach([&](const ThreadState &t) {
    Snapshot s;
    report::ThreadRecord &r = s.record;
    r.index = t.index;
    r.type = namer.name(t);
    copySyncCounts(t, &r);
    int64_t m = t.observed_migrations.load(std::memory_order_acquire);
    if (m >= 0) r.observed_migrations = uint64_t(m);
    s.start_ns = t.start_ns;
    s.end_ns = t.end_ns.load(std::memory_order_acquire);
    if (s.end_ns == 0 || s.end_ns > end_ns) {
      s.end_ns = end_ns;
      if (t.index != 0 && s.record.type != "OpenMP worker") ++still_running;
    }
    intervals.push_back({s.start_ns, s.end_ns});
    s.profiled = profiled(s.start_ns, s.end_ns);
    if (!s.profiled && t.index != 0) ++unprofiled;
    threads.push_back(std::move(s));
  });
  // Folded threads of one type, as snapshots of their totals.
  const uint64_t folded = threadRegistry().foldedThreads();
  threadRegistry().forEachFolded([&](const FoldedThreads &g) {
    Snapshot s;
    report::ThreadRecord &r = s.record;
    r.type = namer.name(g.start_routine, false);
    copySyncCounts(g, &r);
    if (g.measured_threads) r.observed_migrations = g.observed_migrations;
    s.start_ns = std::max(g.first_start_ns, start_ns);
    s.end_ns = std::min(g.last_end_ns, end_ns);
    s.folded = g.threads;
    s.profiled = profiled(s.start_ns, s.end_ns);
    if (!s.profiled) unprofiled += g.threads;
    threads.push_back(std::move(s));
  });
  // Folded threads left no lifetimes: the registry then has the exact time
  // two or more threads were alive.
  // Synchronisation is counted only while profiled, so the parallel phase
  // that weighs it is taken over the profiled periods too.
  double p = switches.always_on ? parallelPhase(intervals, start_ns, end_ns)
                                : parallelPhaseOver(intervals, periods);
  if (folded > 0 && end_ns > start_ns && switches.always_on)
    p = std::min(1.0, double(threadRegistry().parallelNanos(end_ns)) / double(end_ns - start_ns));
  double run_seconds = double(end_ns - start_ns) / 1e9;
  if (const auto &in = profile.instrumentation)
    run_seconds = syncCountSeconds(run_seconds, in->always_on, in->profiled_ms);

  addMigrationIssue(profile, threads, p, run_seconds);
  addImbalance(profile, threads);
  for (Snapshot &s : threads)
    if (!s.folded) profile.threads.push_back(std::move(s.record));
  if (folded > 0)
    profile.notes.push_back(
        std::to_string(folded) + " finished thread(s) were folded into per-type totals "
        "(NUMAPERF_THREAD_RECORDS=" + std::to_string(runtimeConfig().thread_records) +
        "): they count in the scores and thread types but have no record in `threads`");

  std::string problem = migrationCounterProblem();
  if (!problem.empty())
    profile.notes.push_back("observed CPU migrations are not available on this machine (" +
                            problem + ")");
  if (unprofiled > 0 && !periods.empty())  // else a note says nothing was profiled
    profile.notes.push_back(std::to_string(unprofiled) +
                            " thread(s) ran only while profiling was off: they are listed, "
                            "but left out of the load-balance analysis");
  if (still_running > 0)
    profile.notes.push_back(std::to_string(still_running) +
                            " thread(s) were still running when the report was written");
}

}  // namespace numaperf

// Thresholds are read once, at start-up, right after the runtime's own
// settings (constructor 101), like every other NUMAPERF_* variable.
__attribute__((constructor(102))) static void numaperfReadThreadConfig() {
  using namespace numaperf;
  if (!profilingActive()) return;
  readDouble("NUMAPERF_MIGRATION_THRESHOLD", 0, 1e15, &g_thread_config.migration_threshold);
  readDouble("NUMAPERF_IMBALANCE_RATIO", 1, 1e15, &g_thread_config.imbalance_ratio);
  readUnsigned("NUMAPERF_SUGGEST_THREADS", 1, 1u << 20, &g_thread_config.suggest_threads);
}
