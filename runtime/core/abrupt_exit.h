// The report when the process ends without running its destructors: _exit,
// _Exit, quick_exit, a fatal or terminating signal. Such an end may come from
// a signal handler that interrupted this very thread inside the runtime (a
// lock held), so the report is built on a helper thread and waited for with a
// deadline: a report that cannot finish in time is given up (the target file
// is then absent, never truncated) and the process ends as it would have.
#pragma once

namespace numaperf {

// Seconds the ending thread waits for the report before going on.
constexpr int kAbruptReportTimeoutSeconds = 30;

// Writes the report once, bounded by kAbruptReportTimeoutSeconds. Safe to
// call from a signal handler (best effort: it creates a thread) and from
// several threads at once (the others wait for the same report). Returns
// without waiting when called on the reporting thread itself.
void reportBeforeAbruptExit();

}  // namespace numaperf
