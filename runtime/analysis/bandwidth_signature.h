// Turns the objects' folded class counts (core/placement_signature.h) into
// the report's bandwidth signature: fractions for the program and for its
// heaviest objects, reads and writes apart (docs/bwmodel.md).
#pragma once

#include "analysis/site_aggregation.h"
#include "report/profile_model.h"

#include <optional>
#include <vector>

namespace numaperf {

constexpr size_t kSignatureObjects = 20;  // objects listed, heaviest first

// None when no access was classified.
std::optional<report::BandwidthSignature> buildBandwidthSignature(
    const std::vector<ObjectTotals> &objects);

}  // namespace numaperf
