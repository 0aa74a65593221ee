#include "common/env_config.h"

#include "common/log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

namespace numaperf {

bool parseDouble(const char *text, double min, double max, double *out) {
  if (!text || !*text) return false;
  errno = 0;
  char *end = nullptr;
  double v = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !std::isfinite(v)) return false;
  if (v < min || v > max) return false;
  *out = v;
  return true;
}

bool parseUnsigned(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
  if (!text || !*text || *text == '-' || *text == '+') return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') return false;
  if (v < min || v > max) return false;
  *out = v;
  return true;
}

bool parseBool(const char *text, bool *out) {
  if (!text) return false;
  static const char *const kTrue[] = {"1", "yes", "true", "on"};
  static const char *const kFalse[] = {"0", "no", "false", "off"};
  for (const char *t : kTrue)
    if (strcasecmp(text, t) == 0) return *out = true, true;
  for (const char *f : kFalse)
    if (strcasecmp(text, f) == 0) return *out = false, true;
  return false;
}

namespace {

void readDouble(const char *name, double min, double max, double *value) {
  const char *text = getenv(name);
  if (!text) return;
  if (!parseDouble(text, min, max, value))
    logMessage("%s='%s' is not a number in [%g, %g]; using %g", name, text, min,
               max, *value);
}

void readUnsigned(const char *name, uint64_t min, uint64_t max, uint32_t *value) {
  const char *text = getenv(name);
  if (!text) return;
  uint64_t v;
  if (parseUnsigned(text, min, max, &v))
    *value = static_cast<uint32_t>(v);
  else
    logMessage("%s='%s' is not a whole number in [%llu, %llu]; using %u", name,
               text, (unsigned long long)min, (unsigned long long)max, *value);
}

// A value out of `choices` (case-sensitive); its index goes to `*index`.
void readChoice(const char *name, std::initializer_list<const char *> choices, unsigned *index) {
  const char *text = getenv(name);
  if (!text) return;
  unsigned i = 0;
  std::string names;
  for (const char *c : choices) {
    if (strcmp(text, c) == 0) {
      *index = i;
      return;
    }
    names += (i++ ? ", " : "") + std::string(c);
  }
  logMessage("%s='%s' is not one of %s; using %s", name, text, names.c_str(),
             choices.begin()[*index]);
}

void readString(const char *name, std::string *value) {
  const char *text = getenv(name);
  if (text) *value = text;
}

}  // namespace

RuntimeConfig loadRuntimeConfig() {
  RuntimeConfig c;
  readString("NUMAPERF_REPORT", &c.report_path);
  readString("NUMAPERF_JSON", &c.json_path);
  readString("NUMAPERF_CALIBRATION", &c.calibration_path);
  readDouble("NUMAPERF_REMOTE_THRESHOLD", 0, 1e15, &c.remote_threshold);
  readDouble("NUMAPERF_FALSE_SHARING_THRESHOLD", 0, 1e15, &c.false_sharing_threshold);
  readDouble("NUMAPERF_TRUE_SHARING_THRESHOLD", 0, 1e15, &c.true_sharing_threshold);
  readDouble("NUMAPERF_SHARING_SHARE", 0, 1e6, &c.sharing_share);
  readDouble("NUMAPERF_SHARING_HOT_RATE", 0, 1e15, &c.sharing_hot_rate);
  readUnsigned("NUMAPERF_WORD_DETAIL_WRITES", 1, 1u << 30, &c.word_detail_writes);
  readUnsigned("NUMAPERF_PAGE_DETAIL_THRESHOLD", 0, 1u << 30, &c.page_detail_threshold);
  readUnsigned("NUMAPERF_SAMPLE_PAGES", 0, 1u << 20, &c.page_sample_rate);
  readUnsigned("NUMAPERF_SAMPLE_MIN_KIB", 1, 1u << 30, &c.page_sample_min_kib);
  readUnsigned("NUMAPERF_SAMPLE_SITE_OBJECTS", 0, 1u << 30, &c.page_sample_site_objects);
  readUnsigned("NUMAPERF_SAMPLE_LINE_WINDOWS", 0, 1u << 20, &c.line_window_rate);
  readUnsigned("NUMAPERF_STACK_DEPTH", 1, 64, &c.stack_depth);
  readUnsigned("NUMAPERF_MEMORY_LIMIT", 0, 1u << 24, &c.memory_limit_mib);
  readUnsigned("NUMAPERF_THREAD_RECORDS", 0, 1u << 24, &c.thread_records);
  unsigned score_time = c.score_native_time ? 0 : 1;
  readChoice("NUMAPERF_SCORE_TIME", {"native", "wall"}, &score_time);
  c.score_native_time = score_time == 0;
  return c;
}

}  // namespace numaperf
