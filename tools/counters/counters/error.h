// Errors of the counter layer that the user can fix (unknown event, bad
// invariant file, program that cannot be started). The command prints the
// message once, on one line, and exits with status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace numaperf::counters {

class CountersError : public std::runtime_error {
 public:
  explicit CountersError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace numaperf::counters
