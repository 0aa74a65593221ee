// Text and JSON output of a prediction and of a fitted signature.
// Numbers are rounded to 12 decimals so that exact model values print
// exactly (0.65, not 0.6499999999999999). Schema: docs/bwmodel.md.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bwmodel/link_load.h"
#include "bwmodel/machine.h"
#include "bwmodel/matrices.h"
#include "bwmodel/signature.h"
#include "bwmodel/solver.h"

namespace numaperf::bwmodel {

struct Prediction {
  Machine machine;
  Placement placement;
  Signature read, write;
  Matrix readMatrix, writeMatrix;
  std::optional<LoadPrediction> load;
  std::string calibrationSource;  // "" without calibration
};

struct FitResult {
  Fit read, write;
  unsigned runs = 0;
};

double rounded(double v);
nlohmann::json toJson(const Signature& s);
nlohmann::json toJson(const Matrix& m);
nlohmann::json toJson(const Prediction& p);
nlohmann::json toJson(const FitResult& f);
std::string toText(const Prediction& p);
std::string toText(const FitResult& f);

}  // namespace numaperf::bwmodel
