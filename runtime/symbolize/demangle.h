// C++ symbol demangling (Itanium ABI).
#pragma once

#include <string>

namespace numaperf::symbolize {

// Demangles an Itanium-mangled name ("_ZN3foo3barEv" -> "foo::bar()").
// Names that are not mangled, or fail to demangle, are returned unchanged.
// Never throws.
std::string demangle(const std::string& name);

}  // namespace numaperf::symbolize
