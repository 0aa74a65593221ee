// How the process ends, as without the profiler, but with a report whenever
// the process still runs code: signal_interceptors.cpp (fatal and
// terminating signals whose action is the default) and
// process_exit_interceptors.cpp (_exit, _Exit, quick_exit, vfork).
#pragma once

namespace numaperf {

// For each signal listed in signal_interceptors.cpp whose action is the
// default, installs a handler that writes the report and then ends the
// process with that same signal. The program keeps seeing SIG_DFL.
void installSignalHandlers();
// Registers the report with at_quick_exit (runs after the program's own
// quick-exit handlers, which were registered later).
void installQuickExitReport();

}  // namespace numaperf
