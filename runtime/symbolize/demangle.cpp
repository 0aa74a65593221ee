#include "symbolize/demangle.h"

#include <cxxabi.h>

#include <cstdlib>

namespace numaperf::symbolize {

std::string demangle(const std::string& name) {
  // __cxa_demangle also accepts bare type encodings ("i" -> "int"), so only
  // hand it names that carry the function/object prefix.
  if (name.size() < 3 || name.compare(0, 2, "_Z") != 0) return name;
  try {
    int status = 0;
    char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status != 0 || out == nullptr) {
      std::free(out);
      return name;
    }
    std::string result(out);
    std::free(out);
    return result;
  } catch (...) {
    return name;
  }
}

}  // namespace numaperf::symbolize
