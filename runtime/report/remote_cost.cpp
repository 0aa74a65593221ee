#include "report/remote_cost.h"

#include "report/number_format.h"

#include <fstream>
#include <sstream>

namespace numaperf::report {

std::optional<RemoteCost> readRemoteCost(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read calibration file " + path;
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("format", "") != "numaperf-calibration") {
    *error = path + " is not a numaperf calibration file (write one with 'numaperf probe calibrate')";
    return std::nullopt;
  }
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1) {
    *error = path + ": unsupported calibration version (this numaperf reads version 1)";
    return std::nullopt;
  }
  RemoteCost cost;
  if (j.contains("host") && j["host"].is_string()) cost.host = j["host"].get<std::string>();
  const nlohmann::json* extra = nullptr;
  if (j.contains("summary") && j["summary"].is_object() && j["summary"].contains("remote_extra_ns"))
    extra = &j["summary"]["remote_extra_ns"];
  if (extra && extra->is_number()) cost.remote_extra_ns = extra->get<double>();
  return cost;
}

void addRemoteCostEstimates(Profile& profile, const RemoteCost& cost) {
  const std::string host = cost.host.empty() ? std::string("the calibrated host") : cost.host;
  if (!cost.remote_extra_ns) {
    profile.notes.push_back("calibration of " + host +
                            " has no remote memory (one NUMA node): no time estimate");
    return;
  }
  bool any = false;
  for (Issue& issue : profile.issues) {
    if (issue.kind != "remote_access" || !issue.evidence.contains("remote_accesses") ||
        !issue.evidence["remote_accesses"].is_number())
      continue;
    double remote = issue.evidence["remote_accesses"].get<double>();
    issue.evidence["estimated_extra_ms"] = remote * *cost.remote_extra_ns / 1e6;
    any = true;
  }
  if (any)
    profile.notes.push_back("estimated_extra_ms: remote accesses x " +
                            formatFixed(*cost.remote_extra_ns, 1) +
                            " ns, the mean extra latency of a remote access on " + host +
                            " (numaperf probe calibrate)");
}

}  // namespace numaperf::report
