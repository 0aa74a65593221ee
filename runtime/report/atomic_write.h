// Crash-safe file output: readers see the old file or the complete new one.
#pragma once

#include <string>

namespace numaperf::report {

// Writes contents to a temporary file in the target's directory
// (".<name>.tmp.<pid>.<n>"), fsyncs it, renames it over path and fsyncs the
// directory (best effort). On failure the temporary file is removed, the
// target is left untouched, false is returned and *error (if non-null) says
// which step failed and why (strerror). The new file gets mode 0666 & ~umask.
// Never throws; async-signal-unsafe only through malloc.
bool writeFileAtomically(const std::string& path, const std::string& contents,
                         std::string* error);

}  // namespace numaperf::report
