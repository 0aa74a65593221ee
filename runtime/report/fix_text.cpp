#include "report/fix_text.h"

#include <algorithm>
#include <cstring>

namespace numaperf::report {

namespace {

struct FixEntry {
  const char* code;
  const char* sentence;
};

// Constant table: no global constructor.
constexpr FixEntry kFixes[] = {
    {"page_interleave",
     "Interleave the object's pages across nodes (numa_alloc_interleaved or mbind "
     "MPOL_INTERLEAVE)"},
    {"block_interleave",
     "Split the object into per-thread blocks and place each block on its thread's node"},
    {"duplicate", "Duplicate the read-only data per node"},
    {"padding", "Pad/align the contended fields to separate cache lines"},
    {"thread_binding", "Bind threads to nodes (round robin across nodes) to stop migrations"},
    {"adjust_threads", "Rebalance the number of threads per stage as suggested in the evidence"},
    {"balance_work", "Split the work evenly among the threads of this type (smaller chunks, "
                     "dynamic scheduling or work stealing)"},
    {"local_allocation",
     "Allocate the object on the node of the thread that uses it (first touch by that thread "
     "or numa_alloc_onnode)"},
    {"reduce_sharing", "Give each thread its own copy of the written data and merge at the end"},
};

}  // namespace

std::string fixSentence(const std::string& code) {
  for (const FixEntry& e : kFixes)
    if (code == e.code) return e.sentence;
  return code;
}

std::string kindText(const std::string& kind) {
  std::string s = kind.empty() ? std::string("issue") : kind;
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

}  // namespace numaperf::report
