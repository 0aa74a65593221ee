// The functions each instrumented module reports (struct
// numaperf_function_desc, hook_abi.h): instrumented ones with their static
// hook count and entry counter, and those the compile-time filter dropped.
// Read at report time for the report's "instrumentation" section and for
// `numaperf select` (hook calls per function: counted, or entries x hooks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct numaperf_function_desc;

namespace numaperf {

struct FunctionRecord {
  std::string name;  // symbol name
  std::string file;
  uint32_t line = 0;
  uint32_t hooks = 0;
  uint32_t filtered_accesses = 0;
  bool own_code_filtered = false;
  uint64_t entries = 0;  // entries of the instrumented body
  // Accesses its hooks reported, when the module counted them
  // (NUMAPERF_FUNCTION_HOOK_COUNTS); else estimated as entries x hooks.
  bool hook_calls_counted = false;
  uint64_t hook_calls = 0;
  uint64_t first_thread = 0;  // index + 1 of the thread that entered it first; 0 unknown
};

class FunctionRegistry {
 public:
  void add(const numaperf_function_desc *fns, uint64_t count);
  // A module goes away (dlclose): its counters are read one last time.
  void remove(const numaperf_function_desc *fns, uint64_t count);
  // Every function registered so far, counters read now; one record per
  // symbol (inline functions defined in several modules are summed).
  std::vector<FunctionRecord> snapshot() const;
};

FunctionRegistry &functionRegistry();

}  // namespace numaperf
