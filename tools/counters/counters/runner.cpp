#include "counters/runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>

#include "counters/error.h"
#include "counters/perf_events.h"

namespace numaperf::counters {

namespace {

double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// The child waits on `go` until its counters exist, then execs; an exec
// failure comes back through a close-on-exec pipe.
struct Child {
  pid_t pid = -1;
  int go = -1, err = -1;
};

Child startChild(const std::vector<std::string>& argv) {
  int go[2], err[2];
  if (pipe2(go, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) throw CountersError("pipe: " + std::string(std::strerror(errno)));
  pid_t pid = fork();
  if (pid < 0) throw CountersError("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    close(go[1]);
    close(err[0]);
    char c;
    if (::read(go[0], &c, 1) != 1) _exit(127);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    int e = errno;
    (void)!::write(err[1], &e, sizeof e);
    _exit(127);
  }
  close(go[0]);
  close(err[1]);
  return {pid, go[1], err[0]};
}

}  // namespace

RunResult runAndCount(const RunOptions& opts) {
  if (opts.argv.empty()) throw CountersError("no program to run (give it after --)");
  RunResult res;
  std::vector<Pmu> pmus = discoverPmus(opts.sysfsRoot);

  std::vector<std::string> fixed;
  int programmable = 0;
  std::vector<Invariant> invariants;
  std::map<std::string, std::vector<int>> constraints;
  for (const auto& f : opts.families) {
    fixed.insert(fixed.end(), f.fixed.begin(), f.fixed.end());
    if (f.programmable > 0) programmable = f.programmable;
    invariants.insert(invariants.end(), f.invariants.begin(), f.invariants.end());
    constraints.insert(f.constraints.begin(), f.constraints.end());
  }
  if (programmable == 0) programmable = 4;  // unknown CPU: a common minimum

  std::vector<EventSpec> wanted;
  for (const auto& name : opts.events) {
    try {
      wanted.push_back(resolveEvent(name, pmus));
    } catch (const CountersError& e) {
      res.unavailable.push_back({name, e.what()});
      if (opts.onUnavailable) opts.onUnavailable(name, e.what());
    }
  }

  Child child = startChild(opts.argv);
  auto abandon = [&]() {
    kill(child.pid, SIGKILL);
    close(child.go);
    close(child.err);
    waitpid(child.pid, nullptr, 0);
  };

  // Probe each event alone on the child: what the host cannot count is
  // reported once and left out.
  for (const auto& e : wanted) {
    Counter c;
    std::string why = c.open(e, e.cpus.empty() ? child.pid : -1, e.cpus.empty() ? -1 : e.cpus.front(), -1);
    if (why.empty())
      res.specs.push_back(e);
    else {
      res.unavailable.push_back({e.name, why});
      if (opts.onUnavailable) opts.onUnavailable(e.name, why);
    }
  }
  if (res.specs.empty()) {
    abandon();
    throw CountersError("none of the events can be counted on this host");
  }

  // The rotation.
  std::vector<PmuSpec> pmuSpecs;
  std::map<std::string, int> pmuIndex;
  std::vector<ScheduledEvent> sev;
  for (const auto& e : res.specs) {
    std::string key = e.software ? "software" : e.pmu;
    if (!pmuIndex.count(key)) {
      pmuIndex[key] = static_cast<int>(pmuSpecs.size());
      pmuSpecs.push_back({key, e.software ? -1 : programmable});
    }
    std::string canon = canonicalEventName(e.name);
    bool isFixed = std::find(fixed.begin(), fixed.end(), canon) != fixed.end();
    auto it = constraints.find(canon);
    sev.push_back({e.name, pmuIndex[key], isFixed, it == constraints.end() ? std::vector<int>{} : it->second});
  }
  std::vector<std::string> names;
  for (const auto& e : res.specs) names.push_back(e.name);
  LinearSystem sys = restrictTo(invariants, names);
  try {
    res.schedule = buildSchedule(sev, pmuSpecs, invariantNeighbours(sys, names.size()));
  } catch (...) {
    abandon();
    throw;
  }

  // One group per configuration and PMU; software and fixed events once.
  const size_t n = res.specs.size();
  std::vector<std::vector<std::unique_ptr<Counter>>> fds(n);
  std::vector<bool> openedAlone(n, false);
  for (const auto& cfg : res.schedule) {
    std::map<int, int> leader;  // pmu -> leader fd (per-thread events)
    for (int i : cfg.events) {
      const auto& e = res.specs[i];
      bool once = e.software || sev[i].fixed || res.schedule.size() == 1 || !e.cpus.empty();
      if (once && openedAlone[i]) continue;
      std::vector<int> cpus = e.cpus.empty() ? std::vector<int>{-1} : e.cpus;
      for (int cpu : cpus) {
        auto c = std::make_unique<Counter>();
        int group = -1;
        if (!once && cpu < 0 && leader.count(sev[i].pmu)) group = leader[sev[i].pmu];
        std::string why = c->open(e, cpu < 0 ? child.pid : -1, cpu, group);
        if (!why.empty()) {
          abandon();
          throw CountersError("event " + e.name + ": " + why);
        }
        if (!once && cpu < 0 && group < 0) leader[sev[i].pmu] = c->fd();
        fds[i].push_back(std::move(c));
      }
      if (once) openedAlone[i] = true;
    }
  }

  // Go: the child execs (enabling its counters); read every slice.
  struct sigaction ign {}, oldInt {}, oldQuit {};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ign, &oldInt);  // Ctrl-C is for the program, as with perf stat
  sigaction(SIGQUIT, &ign, &oldQuit);
  double start = now();
  char go = 1;
  (void)!::write(child.go, &go, 1);
  close(child.go);
  int execErr = 0;
  ssize_t got = ::read(child.err, &execErr, sizeof execErr);
  close(child.err);
  if (got == static_cast<ssize_t>(sizeof execErr)) {
    waitpid(child.pid, nullptr, 0);
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);
    throw CountersError("cannot run " + opts.argv[0] + ": " + std::strerror(execErr));
  }

  std::vector<std::vector<RawCount>> last(n);
  for (size_t i = 0; i < n; ++i) last[i].resize(fds[i].size());
  res.slices.assign(n, {});
  auto sample = [&]() {
    for (size_t i = 0; i < n; ++i) {
      Reading r;
      for (size_t k = 0; k < fds[i].size(); ++k) {
        RawCount c;
        if (!fds[i][k]->read(&c)) continue;
        r.count += static_cast<double>(c.value - last[i][k].value);
        r.enabled = std::max(r.enabled, static_cast<double>(c.enabled - last[i][k].enabled));
        r.running += static_cast<double>(c.running - last[i][k].running);
        last[i][k] = c;
      }
      r.running = std::min(r.running, r.enabled);
      res.slices[i].push_back(r);
    }
    res.sliceEnd.push_back(now() - start);
  };
  int status = 0;
  timespec slice{static_cast<time_t>(opts.sliceMs / 1000),
                 static_cast<long>(std::fmod(opts.sliceMs, 1000.0) * 1e6)};
  for (;;) {
    nanosleep(&slice, nullptr);
    pid_t w = waitpid(child.pid, &status, WNOHANG);
    sample();
    if (w == child.pid) break;
  }
  res.elapsed = now() - start;
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGQUIT, &oldQuit, nullptr);
  res.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return res;
}

}  // namespace numaperf::counters
