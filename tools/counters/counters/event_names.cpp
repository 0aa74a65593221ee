#include "counters/event_names.h"

#include <cstring>

#include "counters/error.h"

#if NUMAPERF_HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>
#endif

namespace numaperf::counters {

namespace {

const Pmu* findPmu(const std::vector<Pmu>& pmus, const std::string& name) {
  for (const auto& p : pmus)
    if (p.name == name) return &p;
  return nullptr;
}

const Pmu* findPmuByType(const std::vector<Pmu>& pmus, uint32_t type) {
  for (const auto& p : pmus)
    if (p.type == type) return &p;
  return nullptr;
}

}  // namespace

bool haveLibpfm() { return NUMAPERF_HAVE_LIBPFM != 0; }

EventSpec resolveEvent(const std::string& name, const std::vector<Pmu>& pmus) {
  EventSpec e;
  e.name = name;
  // "pmu/event/" or "pmu/terms/": sysfs.
  auto slash = name.find('/');
  if (slash != std::string::npos) {
    std::string pmuName = name.substr(0, slash);
    std::string rest = name.substr(slash + 1);
    if (!rest.empty() && rest.back() == '/') rest.pop_back();
    const Pmu* p = findPmu(pmus, pmuName);
    if (!p) throw CountersError("unknown event " + name + ": no PMU " + pmuName + " on this host");
    e.pmu = p->name;
    e.type = p->type;
    e.cpus = p->cpus;
    e.software = p->kind == PmuKind::Software;
    std::string terms = rest;
    for (const auto& ev : p->events)
      if (ev.name == rest) {
        terms = ev.terms;
        e.scale = ev.scale;
        e.unit = ev.unit;
      }
    if (terms.find('=') == std::string::npos && terms == rest)
      throw CountersError("unknown event " + name + ": PMU " + pmuName + " has no event " + rest);
    Encoding enc = encodeTerms(*p, terms);
    e.config = enc.config;
    e.config1 = enc.config1;
    e.config2 = enc.config2;
    return e;
  }
#if NUMAPERF_HAVE_LIBPFM
  static const bool ready = pfm_initialize() == PFM_SUCCESS;
  if (ready) {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    pfm_perf_encode_arg_t arg;
    std::memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.size = sizeof arg;
    int rc = pfm_get_os_event_encoding(name.c_str(), PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
    if (rc == PFM_SUCCESS) {
      e.type = attr.type;
      e.config = attr.config;
      e.config1 = attr.config1;
      e.config2 = attr.config2;
      e.software = attr.type == 1;  // PERF_TYPE_SOFTWARE
      if (e.software && attr.config <= 1) e.unit = "ns";  // cpu-clock, task-clock
      const Pmu* p = findPmuByType(pmus, attr.type);
      // Types 0, 3 and 4 (hardware, cache, raw) are the core PMU.
      e.pmu = e.software ? "software" : p ? p->name : attr.type <= 4 ? "cpu" : "pmu" + std::to_string(attr.type);
      return e;
    }
    throw CountersError("unknown event " + name + ": libpfm4 says \"" + pfm_strerror(rc) + "\"");
  }
#endif
  throw CountersError("unknown event " + name + ": numaperf was built without libpfm4 (use pmu/event/ syntax)");
}

}  // namespace numaperf::counters
