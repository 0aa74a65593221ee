// `numaperf placement PROFILE.json --topology ... --threads-per-node N,N,...`:
// what-if placement from a profile's bandwidth signature (issue 8;
// docs/bwmodel.md, "numaperf placement"). Predicts the traffic per link and
// per node under the given, round-robin and packed placements and under the
// fixes the profile's issues suggest. Bad input: one line
// `numaperf placement: error: ...` on stderr and exit status 2.
#pragma once
#include <CLI/CLI.hpp>

namespace numaperf::cli {

void registerPlacementCommand(CLI::App& app);

}  // namespace numaperf::cli
