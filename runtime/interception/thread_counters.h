// Kernel-observed CPU migrations per thread: the scheduler's count
// (se.nr_migrations in the thread's /proc sched file) taken when the thread
// starts and when it ends, or at report time for threads still running.
// Where the kernel has no such file, a perf_event software counter
// (PERF_COUNT_SW_CPU_MIGRATIONS, no hardware PMU needed) opened for the
// thread instead (inherit=0: the thread only). When the kernel refuses
// (perf_event_paranoid, seccomp, no perf support) nothing is retried and the
// report says so once.
#pragma once

#include "core/thread_registry.h"

#include <string>

namespace numaperf {

// Called by the thread itself, right after it is registered. `fresh`: the
// thread was just created (pthread_create's trampoline), so the scheduler's
// count for it is still zero and need not be read.
void openMigrationCounter(ThreadState *t, bool fresh = false);
// Called by the thread itself when it ends (idempotent).
void closeMigrationCounter(ThreadState *t);
// Report time: reads the counters of threads still running.
void collectMigrationCounters();
// Empty when the counters worked; otherwise why they did not.
std::string migrationCounterProblem();

}  // namespace numaperf
