#include "core/function_registry.h"

#include "numaperf/hook_abi.h"

#include "common/internal_alloc.h"
#include "common/spin_lock.h"

#include <algorithm>
#include <map>

namespace numaperf {
namespace {

// Live tables point into their module; a removed module's rows are copied.
struct Table {
  const numaperf_function_desc *fns;
  uint64_t count;
  Table *next;
};

SpinLock g_lock;
Table *g_live = nullptr;
std::vector<FunctionRecord> *g_unloaded = nullptr;

FunctionRecord recordOf(const numaperf_function_desc &d) {
  FunctionRecord r;
  r.name = d.name ? d.name : "";
  r.file = d.file ? d.file : "";
  r.line = d.line;
  r.hooks = d.hooks;
  r.filtered_accesses = d.filtered;
  r.own_code_filtered = (d.flags & NUMAPERF_FUNCTION_FILTERED) != 0;
  r.entries = d.entries ? __atomic_load_n(d.entries, __ATOMIC_RELAXED) : 0;
  r.hook_calls_counted = d.entries && (d.flags & NUMAPERF_FUNCTION_HOOK_COUNTS);
  if (r.hook_calls_counted) {
    r.hook_calls = __atomic_load_n(d.entries + 1, __ATOMIC_RELAXED);
    r.first_thread = __atomic_load_n(d.entries + 2, __ATOMIC_RELAXED);
  }
  return r;
}

}  // namespace

void FunctionRegistry::add(const numaperf_function_desc *fns, uint64_t count) {
  if (!fns || count == 0) return;
  Table *t = internalNew<Table>();
  if (!t) return;
  SpinLockGuard guard(g_lock);
  *t = {fns, count, g_live};
  g_live = t;
}

void FunctionRegistry::remove(const numaperf_function_desc *fns, uint64_t count) {
  SpinLockGuard guard(g_lock);
  for (Table **p = &g_live; *p; p = &(*p)->next) {
    if ((*p)->fns != fns) continue;
    Table *t = *p;
    *p = t->next;
    if (!g_unloaded) g_unloaded = internalNew<std::vector<FunctionRecord>>();
    if (g_unloaded)
      for (uint64_t i = 0; i < count; ++i) g_unloaded->push_back(recordOf(fns[i]));
    internalDelete(t);
    return;
  }
}

std::vector<FunctionRecord> FunctionRegistry::snapshot() const {
  std::vector<FunctionRecord> all;
  {
    SpinLockGuard guard(g_lock);
    for (Table *t = g_live; t; t = t->next)
      for (uint64_t i = 0; i < t->count; ++i) all.push_back(recordOf(t->fns[i]));
    if (g_unloaded) all.insert(all.end(), g_unloaded->begin(), g_unloaded->end());
  }
  // linkonce functions are described by every module that defines them
  // (only one copy runs: its counter counts, the others stay 0), and code
  // inlined into several functions has a row in each (docs/filters.md).
  std::map<std::string, FunctionRecord> merged;
  for (FunctionRecord &r : all) {
    auto [it, fresh] = merged.emplace(r.name + '\0' + r.file, r);
    if (fresh) continue;
    FunctionRecord &m = it->second;
    m.entries += r.entries;
    m.hook_calls += r.hook_calls;
    m.hook_calls_counted = m.hook_calls_counted || r.hook_calls_counted;
    // Copies inlined into several functions were first run by different
    // threads: keep the lowest index (the main thread when it ran one).
    if (r.first_thread && (!m.first_thread || r.first_thread < m.first_thread))
      m.first_thread = r.first_thread;
    m.hooks = std::max(m.hooks, r.hooks);
    m.filtered_accesses = std::max(m.filtered_accesses, r.filtered_accesses);
  }
  std::vector<FunctionRecord> out;
  out.reserve(merged.size());
  for (auto &kv : merged) out.push_back(std::move(kv.second));
  return out;
}

FunctionRegistry &functionRegistry() {
  static FunctionRegistry registry;
  return registry;
}

}  // namespace numaperf
