// Errors the user can fix (bad fractions, placement, topology, calibration).
// The command prints the message once and exits with status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace numaperf::bwmodel {

class BwmodelError : public std::runtime_error {
 public:
  explicit BwmodelError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace numaperf::bwmodel
