#include "cli/counters_command.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "counters/error.h"
#include "counters/report.h"
#include "counters/runner.h"

namespace numaperf::cli {

using namespace numaperf::counters;

namespace {

struct Opts {
  std::string events, group, json, invariants = NUMAPERF_INVARIANTS_DIR, sysfs = "/sys/bus/event_source/devices";
  double intervalMs = 0, level = 0.95;
  std::vector<std::string> program;
};

const char* kDefaultEvents = "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions";

void cpuIdentity(std::string* vendor, int* family, int* model) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  *family = *model = -1;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    std::string val = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (key == "vendor_id" && vendor->empty()) *vendor = val;
    else if (key == "cpu family" && *family < 0) *family = std::atoi(val.c_str());
    else if (key == "model" && *model < 0) *model = std::atoi(val.c_str());
  }
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;  // commas inside pmu/terms/ belong to the event
  for (char c : s) {
    if (c == '/') depth ^= 1;
    if (c == ',' && depth == 0) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

void run(const Opts& o) {
  if (o.program.empty()) throw CountersError("no program given: numaperf counters [-e EVENTS] -- PROGRAM ARGS");
  if (!(o.level > 0 && o.level < 1)) throw CountersError("--level must be between 0 and 1, e.g. 0.95");
  if (o.intervalMs < 0 || (o.intervalMs > 0 && o.intervalMs < 10))
    throw CountersError("-I must be at least 10 (milliseconds)");
  if (!o.events.empty() && !o.group.empty()) throw CountersError("give either -e or -g, not both");

  std::vector<Family> all = loadFamilyDir(o.invariants);
  std::string vendor;
  int family, model;
  cpuIdentity(&vendor, &family, &model);
  std::vector<Family> mine = familiesFor(all, vendor, family, model);

  RunOptions ro;
  ro.argv = o.program;
  ro.sysfsRoot = o.sysfs;
  if (!o.group.empty()) {
    const Family* g = nullptr;
    for (const auto& f : all)
      if (f.name == o.group) g = &f;
    if (!g) {
      std::string known;
      for (const auto& f : all) known += (known.empty() ? "" : ", ") + f.name;
      throw CountersError("unknown group " + o.group + " (known: " + known + ")");
    }
    std::vector<std::string> ev = g->fixed;
    for (const auto& inv : g->invariants)
      for (const auto& t : inv.terms)
        if (std::find(ev.begin(), ev.end(), t.event) == ev.end()) ev.push_back(t.event);
    ro.events = ev;
    bool listed = false;
    for (const auto& f : mine) listed |= f.name == g->name;
    if (!listed) mine.push_back(*g);
  } else {
    ro.events = splitList(o.events.empty() ? kDefaultEvents : o.events);
    if (ro.events.empty()) throw CountersError("-e needs at least one event name");
  }
  ro.families = mine;
  ro.sliceMs = o.intervalMs > 0 ? std::max(2.0, o.intervalMs / 10) : 10;

  ro.onUnavailable = [](const std::string& event, std::string why) {
    if (why.rfind("unknown event", 0) == 0) why = why.substr(why.find(':') + 2);
    std::fprintf(stderr, "numaperf counters: %s not counted: %s\n", event.c_str(), why.c_str());
  };
  RunResult res = runAndCount(ro);
  std::vector<Invariant> inv;
  for (const auto& f : mine) inv.insert(inv.end(), f.invariants.begin(), f.invariants.end());
  int status = res.exitStatus;
  CountersReport rep = estimateRun(std::move(res), inv, o.intervalMs, o.level, o.program);
  std::ostringstream text;
  printText(rep, text);
  std::cerr << text.str();
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    if (!out || !(out << toJson(rep))) throw CountersError("cannot write " + o.json);
  }
  if (status != 0) throw CLI::RuntimeError(status);
}

}  // namespace

void registerCountersCommand(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  CLI::App* sub = app.add_subcommand(
      "counters", "Count events of a program with multiplexing correction and error bars (docs/counters.md)");
  sub->add_option("-e,--events", o->events, std::string("Comma-separated events (default: ") + kDefaultEvents + ")");
  sub->add_option("-g,--group", o->group, "All events of an invariant family (file in the invariants directory)");
  sub->add_option("-I,--interval", o->intervalMs, "Also print a time series every MS milliseconds (>= 10)");
  sub->add_option("--json", o->json, "Write the results as JSON to FILE");
  sub->add_option("--level", o->level, "Credible level of the intervals (default 0.95)");
  sub->add_option("--invariants", o->invariants, "Directory of invariant files")->capture_default_str();
  sub->add_option("--sysfs", o->sysfs, "Root of the perf PMU devices (tests)")->group("");
  sub->add_option("program", o->program, "Program and arguments, after --")->allow_extra_args();
  sub->callback([o]() {
    try {
      run(*o);
    } catch (const CountersError& e) {
      std::fprintf(stderr, "numaperf counters: error: %s\n", e.what());
      throw CLI::RuntimeError(2);
    } catch (const CLI::Error&) {
      throw;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "numaperf counters: internal error: %s\n", e.what());
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace numaperf::cli
