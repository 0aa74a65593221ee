#include "report/number_format.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cmath>

namespace numaperf::report {

namespace {

const char* nonFinite(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return nullptr;
}

}  // namespace

std::string formatFixed(double value, int decimals) {
  if (const char* s = nonFinite(value)) return s;
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
  if (r.ec != std::errc()) return formatShortest(value);
  return std::string(buf, r.ptr);
}

std::string formatShortest(double value) {
  if (const char* s = nonFinite(value)) return s;
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, value);
  if (r.ec != std::errc()) return "?";
  return std::string(buf, r.ptr);
}

std::string formatBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 5) {
    v /= 1024;
    ++unit;
  }
  return formatFixed(v, 1) + " " + kUnits[unit];
}

std::string formatHex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, value);
  return buf;
}

}  // namespace numaperf::report
