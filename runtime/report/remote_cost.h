// Turns predicted remote accesses into estimated time on a given host, from
// the calibration file `numaperf probe calibrate` writes (docs/probes.md):
// its mean extra latency of a remote over a local access. Used by the
// runtime (NUMAPERF_CALIBRATION) and by `numaperf report --calibration`, and
// it can describe a host other than the one that ran the program.
#pragma once

#include "report/profile_model.h"

#include <optional>
#include <string>

namespace numaperf::report {

struct RemoteCost {
  std::string host;                      // the calibrated host
  std::optional<double> remote_extra_ns; // null on one-node hosts
};

// Reads the summary of a calibration file; nullopt with the reason when the
// file is missing, unreadable, not a calibration or of a newer version.
std::optional<RemoteCost> readRemoteCost(const std::string& path, std::string* error);

// Adds `estimated_extra_ms` (remote accesses x extra latency) to each
// remote-access issue's evidence, and one note saying where the figure comes
// from (or why there is none).
void addRemoteCostEstimates(Profile& profile, const RemoteCost& cost);

}  // namespace numaperf::report
