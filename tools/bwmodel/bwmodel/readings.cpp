#include "bwmodel/readings.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "bwmodel/error.h"

namespace numaperf::bwmodel {

Readings readReadings(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw BwmodelError("cannot read readings file '" + path + "'");
  Readings r;
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& run : j.at("runs")) {
      Placement p = run.at("placement").get<Placement>();
      r.reads.push_back(Run{p, run.at("read").get<Matrix>()});
      r.writes.push_back(Run{p, run.at("write").get<Matrix>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw BwmodelError("malformed readings file '" + path + "': " + e.what());
  }
  return r;
}

}  // namespace numaperf::bwmodel
