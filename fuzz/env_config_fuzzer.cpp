// Fuzzes the runtime's environment settings: the value parsers shared with
// the tools and loadRuntimeConfig() reading every NUMAPERF_* variable. Input:
// one value per line, assigned to the variables in order.
#include "common/env_config.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char* const kVariables[] = {
    "NUMAPERF_REPORT", "NUMAPERF_JSON", "NUMAPERF_REMOTE_THRESHOLD",
    "NUMAPERF_FALSE_SHARING_THRESHOLD", "NUMAPERF_TRUE_SHARING_THRESHOLD",
    "NUMAPERF_SHARING_SHARE", "NUMAPERF_WORD_DETAIL_WRITES", "NUMAPERF_PAGE_DETAIL_THRESHOLD",
    "NUMAPERF_STACK_DEPTH", "NUMAPERF_MEMORY_LIMIT", "NUMAPERF_CALIBRATION",
    "NUMAPERF_THREAD_RECORDS"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> values(1);
  for (size_t i = 0; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    if (c == '\n')
      values.emplace_back();
    else if (c != '\0')
      values.back() += c;
  }
  double d = 0;
  uint64_t u = 0;
  bool b = false;
  for (const std::string& v : values) {
    numaperf::parseDouble(v.c_str(), 0, 1e15, &d);
    numaperf::parseUnsigned(v.c_str(), 0, uint64_t(1) << 30, &u);
    numaperf::parseBool(v.c_str(), &b);
  }
  size_t n = sizeof kVariables / sizeof kVariables[0];
  for (size_t i = 0; i < n; ++i) {
    if (i < values.size())
      setenv(kVariables[i], values[i].c_str(), 1);
    else
      unsetenv(kVariables[i]);
  }
  numaperf::RuntimeConfig c = numaperf::loadRuntimeConfig();
  // Every value is in its documented range whatever the input.
  if (c.stack_depth < 1 || c.stack_depth > 64 || c.word_detail_writes < 1 ||
      c.memory_limit_mib > (1u << 24) || c.thread_records > (1u << 24) || !(c.remote_threshold >= 0))
    abort();
  return 0;
}
