#include "analysis/instrumentation_summary.h"

#include "core/function_registry.h"
#include "core/profiling_switch.h"
#include "symbolize/demangle.h"

#include <algorithm>

namespace numaperf {

report::Instrumentation summarizeInstrumentation(uint64_t start_ns, uint64_t end_ns) {
  report::Instrumentation out;
  SwitchSummary sw = profilingSwitchSummary(start_ns, end_ns);
  out.initially_on = sw.settings.initially_on;
  out.active_regions = sw.settings.regions;
  if (sw.settings.toggle_signal) out.toggle_signal = signalName(sw.settings.toggle_signal);
  out.always_on = sw.always_on;
  out.profiled_ms = double(sw.profiled_ns) / 1e6;
  out.switches_lost = sw.flips_lost;
  for (const ProfiledPeriod &p : sw.periods)
    out.periods.push_back({double(p.start_ns - start_ns) / 1e6,
                           double(p.end_ns - start_ns) / 1e6});

  for (const FunctionRecord &r : functionRegistry().snapshot()) {
    report::InstrumentedFunction f;
    f.name = r.name;
    f.function = symbolize::demangle(r.name);
    f.file = r.file;
    f.line = r.line;
    f.hooks = r.hooks;
    f.filtered_accesses = r.filtered_accesses;
    f.filtered = r.own_code_filtered;
    f.entries = r.entries;
    // Counted by the module's code, or (modules built without hook
    // counters) estimated: a hook inside a loop runs more than once per
    // entry (docs/filters.md, "numaperf select").
    f.hook_calls_counted = r.hook_calls_counted;
    f.hook_calls = r.hook_calls_counted ? r.hook_calls : r.entries * r.hooks;
    if (r.first_thread) f.first_thread = uint32_t(r.first_thread - 1);
    out.functions.push_back(std::move(f));
  }
  std::stable_sort(out.functions.begin(), out.functions.end(),
                   [](const report::InstrumentedFunction &a,
                      const report::InstrumentedFunction &b) {
                     if (a.hook_calls != b.hook_calls) return a.hook_calls > b.hook_calls;
                     return a.name < b.name;
                   });
  return out;
}

}  // namespace numaperf
