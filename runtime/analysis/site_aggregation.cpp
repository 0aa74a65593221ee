#include "analysis/site_aggregation.h"

#include "core/object_fold.h"
#include "core/object_registry.h"
#include "core/stack_store.h"
#include "symbolize/demangle.h"
#include "symbolize/module_snapshot.h"
#include "symbolize/symbolizer.h"

#include <cstring>
#include <map>
#include <string>

namespace numaperf {
namespace {

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, strlen(prefix), prefix) == 0;
}

// Frames in the C/C++ libraries and their headers (std::vector's allocator,
// strdup, ...) are where memory is allocated, not where the program asked for
// it: the site is the first frame outside them.
bool isSystemFrame(const report::Frame &f) {
  const std::string &file = f.location.file;
  if (!file.empty())
    return startsWith(file, "/usr/include/") || startsWith(file, "/usr/lib/") ||
           startsWith(file, "../sysdeps/") || file.find("/include/c++/") != std::string::npos;
  return symbolize::isSystemModule(f.module);
}

const report::Frame &siteFrame(const std::vector<report::Frame> &frames) {
  for (const report::Frame &f : frames)
    if (!isSystemFrame(f)) return f;
  return frames.front();
}

std::string siteKey(const report::Frame &f) {
  if (!f.location.file.empty())
    return f.location.file + ":" + std::to_string(f.location.line) + ":" + f.location.function;
  return f.module + "+" + std::to_string(f.module_offset);
}

}  // namespace

std::vector<ObjectTotals> collectObjectTotals(symbolize::Symbolizer &symbolizer,
                                              uint32_t max_frames) {
  std::map<std::string, ObjectTotals> heap_sites;
  std::map<std::string, uint64_t> heaviest_stack;  // site -> weight of its shown stack
  for (StackRecord *r = stackStore().first(); r; r = r->next_in_store) {
    const ObjectProfile *folded = r->profile.get();
    if (!folded) continue;
    uint64_t weight = folded->evidence_weight;
    std::vector<report::Frame> frames;
    for (uint32_t i = 0; i < r->depth && frames.size() < max_frames; ++i)
      for (report::Frame &f : symbolizer.symbolizeInlined(r->frames[i], /*is_return_address=*/true))
        frames.push_back(std::move(f));
    std::string key = frames.empty() ? std::string("<unknown>") : siteKey(siteFrame(frames));
    bool fresh = heap_sites.find(key) == heap_sites.end();
    ObjectTotals &t = heap_sites[key];
    if (fresh) t.object.instances = 0;
    t.object.kind = "heap";
    t.profile.merge(*folded);
    uint64_t instances = r->instances.load(std::memory_order_relaxed);
    uint64_t size = r->max_size.load(std::memory_order_relaxed);
    t.object.instances += instances;
    if (size > t.object.size) t.object.size = size;
    if (weight >= heaviest_stack[key]) {  // show the stack that matters most
      heaviest_stack[key] = weight;
      if (!frames.empty()) t.object.site = siteFrame(frames).location;
      t.object.stack = std::move(frames);
    }
  }
  std::vector<ObjectTotals> out;
  for (auto &entry : heap_sites) out.push_back(std::move(entry.second));

  for (GlobalObject *g = objectRegistry().firstGlobal(); g; g = g->next) {
    const ObjectProfile *folded = g->profile.get();
    if (!folded) continue;
    ObjectTotals t;
    t.object.kind = "global";
    t.object.name = symbolize::demangle(g->name ? g->name : "");
    t.object.size = g->size;
    t.object.site.file = g->file ? g->file : "";
    t.object.site.line = g->line;
    t.profile.merge(*folded);
    out.push_back(std::move(t));
  }
  for (ObjectTotals &t : out) applySampleEstimate(&t.profile);
  return out;
}

}  // namespace numaperf
