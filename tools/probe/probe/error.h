// Errors of the probes that the user can fix (bad PU, node, size, permission).
// The command prints the message once and exits with status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace numaperf::probe {

class ProbeError : public std::runtime_error {
 public:
  explicit ProbeError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace numaperf::probe
