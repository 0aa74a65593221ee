// Locale-independent number formatting for the text report (the profiled
// program may have called setlocale; output must not change with it).
#pragma once

#include <cstdint>
#include <string>

namespace numaperf::report {

// Fixed notation with `decimals` digits: formatFixed(4496, 1) == "4496.0".
// Non-finite values give "nan", "inf", "-inf".
std::string formatFixed(double value, int decimals);

// Shortest text that reads back to the same double: 1500 -> "1500",
// 0.25 -> "0.25", 1e21 -> "1e+21".
std::string formatShortest(double value);

// 8388608 -> "8.0 MiB", 100 -> "100 B" (binary units, one decimal).
std::string formatBytes(uint64_t bytes);

// An address or offset as 0x-prefixed hexadecimal.
std::string formatHex(uint64_t value);

}  // namespace numaperf::report
