// The profile's JSON form (schema_version 1). The shape is a stable
// interface: readers ignore unknown fields, writers only add fields.
#pragma once

#include "report/profile_model.h"

#include <optional>
#include <string>

namespace numaperf::report {

// Never throws. Non-finite doubles are written as null.
nlohmann::json toJson(const Profile& profile);

// Rebuilds a profile. Returns nullopt and sets *error (if non-null) to a
// message naming the offending field as a path, e.g.
//   "issues[0].score: expected a number, got string"
// Required: schema_version (== kSchemaVersion), program, issues,
// issues[i].kind, issues[i].score, and issues[i].object.kind when the object
// is present (an empty kind means "no object", e.g. thread issues). Every other
// field may be missing (model default). Unknown fields are ignored.
// null is accepted for double fields (read as NaN, mirroring toJson).
// Never throws.
std::optional<Profile> fromJson(const nlohmann::json& json, std::string* error);

// Convenience: parse text then fromJson. Parse errors are reported in *error.
std::optional<Profile> fromJsonText(const std::string& text, std::string* error);

}  // namespace numaperf::report
