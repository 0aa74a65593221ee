// Whether this host exposes memory-controller counters (uncore IMC on Intel,
// the data fabric on AMD, CMN on Arm), which the two-run measurement needs.
#pragma once
#include <string>

namespace numaperf::bwmodel {

// Empty when found; otherwise the reason, for a one-line message.
std::string memoryCountersUnavailableReason(const std::string& sysfsRoot = "/sys/bus/event_source/devices");

}  // namespace numaperf::bwmodel
