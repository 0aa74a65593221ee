// Reading saved profiles for the `numaperf` subcommands: size limit, JSON
// parsing with a nesting limit, the model (report::fromJson) and a list of
// fields this version does not know (ignored, but worth a note).
#pragma once

#include "report/profile_model.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace numaperf::cli {

// Larger files are refused: a real profile is a few MiB at most.
constexpr size_t kMaxProfileBytes = 64u << 20;
// Deeper JSON is refused (keeps every later recursive walk safe).
constexpr int kMaxJsonDepth = 64;

struct LoadedProfile {
  report::Profile profile;
  nlohmann::json raw;                       // the document as read
  std::vector<std::string> unknown_fields;  // paths, e.g. "issues[0].colour"
};

// Parses profile text. On failure returns nullopt and a one-line reason
// (without the file name) in *error. Never throws.
std::optional<LoadedProfile> parseProfile(const std::string& text, std::string* error);

// Reads and parses a file ("-" = standard input). On failure *error is a
// one-line message starting with the path. Never throws.
std::optional<LoadedProfile> loadProfile(const std::string& path, std::string* error);

// Paths of fields the schema does not define (evidence and thresholds are
// free-form and never reported). At most `limit` paths.
std::vector<std::string> unknownFields(const nlohmann::json& doc, size_t limit = 100);

}  // namespace numaperf::cli
