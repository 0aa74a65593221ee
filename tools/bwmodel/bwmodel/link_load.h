// Predicted traffic in GB/s per link (CPU socket -> memory bank) and per
// memory bank, for given per-thread read and write bandwidths, and which of
// them saturate given a calibration file's measured bandwidths.
//
// load(i, j) = threads(i) * (read GB/s * R[i][j] + write GB/s * W[i][j])
// A link's capacity is the calibration's bandwidth for (CPU node of socket i,
// memory node of socket j): the aggregate of all PUs of the CPU node
// streaming from that memory node (docs/probes.md). Its utilisation is
// read / read capacity + write / write capacity (write capacity: `write`,
// else `mixed`, else `read`); a bank's capacity is the largest capacity of
// any link into it. Utilisation >= 1 saturates.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bwmodel/machine.h"
#include "bwmodel/matrices.h"
#include "probe/calibration.h"

namespace numaperf::bwmodel {

struct LinkLoad {
  unsigned cpuSocket = 0, memSocket = 0;
  double readGBps = 0, writeGBps = 0;
  std::optional<double> readCapacityGBps, writeCapacityGBps;
  std::optional<double> utilisation;  // nullopt: no calibration / not measured
  bool saturated = false;
  double totalGBps() const { return readGBps + writeGBps; }
};

struct BankLoad {
  unsigned socket = 0;
  double readGBps = 0, writeGBps = 0;
  std::optional<double> readCapacityGBps, writeCapacityGBps;
  std::optional<double> utilisation;
  bool saturated = false;
  double totalGBps() const { return readGBps + writeGBps; }
};

struct LoadPrediction {
  double threadReadGBps = 0, threadWriteGBps = 0;
  std::vector<LinkLoad> links;  // every (i, j) with threads on i, row-major
  std::vector<BankLoad> banks;  // every socket's bank
  std::vector<std::string> notes;
};

// Reads a `numaperf probe calibrate` file; throws BwmodelError naming it.
probe::Calibration loadCalibration(const std::string& path);

// Throws BwmodelError when the calibration lacks a socket's node.
LoadPrediction predictLoad(const Matrix& read, const Matrix& write, const Placement& p, const Machine& m,
                           double threadReadGBps, double threadWriteGBps,
                           const probe::Calibration* calibration);

}  // namespace numaperf::bwmodel
