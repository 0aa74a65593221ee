// One-line diagnostics of the runtime itself, always prefixed "numaperf: ".
// Written with write(2) on a stack buffer: usable from any context, including
// inside malloc and before the runtime is initialised.
#pragma once

namespace numaperf {

__attribute__((format(printf, 1, 2))) void logMessage(const char *fmt, ...);

}  // namespace numaperf
