// Text and JSON renderings of probe results, and the terminal progress line.
#pragma once
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "probe/calibration.h"
#include "probe/runner.h"

namespace numaperf::probe {

std::string formatBytes(uint64_t bytes);  // "48 KiB", "2 MiB", "105 MiB"

std::string formatLatency(const LatencyResult& r);
nlohmann::json latencyJson(const LatencyResult& r);

std::string formatSweep(const SweepResult& r);
nlohmann::json sweepJson(const SweepResult& r);

// One table; "n/a" where there is no value.
std::string formatMatrix(const std::string& title, const NodeMatrix& m, int precision);
// All the matrices of a calibration, notes said once at the end.
std::string formatCalibration(const Calibration& c);

// A progress line on stderr ("\r[3/12] what"), only when stderr is a
// terminal and only once the work has lasted more than a second (a ticker
// thread redraws it; done() or the destructor stops it and erases the line).
class Progress {
 public:
  Progress(std::string title, size_t steps, bool enabled);
  ~Progress();
  void step(const std::string& what);
  void done();

 private:
  void draw();  // with mu_ held
  std::string title_, what_;
  size_t steps_, current_ = 0;
  bool enabled_, shown_ = false, stop_ = false;
  double start_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread ticker_;
};

}  // namespace numaperf::probe
