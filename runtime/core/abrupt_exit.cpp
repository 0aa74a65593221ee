#include "core/abrupt_exit.h"

#include "core/runtime_state.h"
#include "interception/real_functions.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <pthread.h>

namespace numaperf {
namespace {

enum ReportState : int { kIdle = 0, kRunning = 1, kDone = 2 };
std::atomic<int> g_state{kIdle};
__thread bool t_is_reporter = false;

void *reporterMain(void *) {
  t_is_reporter = true;
  finishAndReport();
  g_state.store(kDone, std::memory_order_release);
  return nullptr;
}

// Async-signal-safe wait (nanosleep) until the report is done or time is up.
void waitForReport() {
  timespec tick = {0, 1000000};  // 1 ms
  for (long waited_ms = 0; waited_ms < kAbruptReportTimeoutSeconds * 1000L; ++waited_ms) {
    if (g_state.load(std::memory_order_acquire) == kDone) return;
    nanosleep(&tick, nullptr);
  }
}

}  // namespace

void reportBeforeAbruptExit() {
  if (t_is_reporter) return;  // the report itself ended the process
  if (g_runtime_status.load(std::memory_order_acquire) != kActive) return;
  int saved_errno = errno;
  int expected = kIdle;
  if (g_state.compare_exchange_strong(expected, kRunning)) {
    resolveRealFunctions();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    // Process-directed signals must go to the program's threads, not here;
    // faults (SEGV, BUS, FPE, ILL) cannot be blocked and are left alone.
    sigset_t all, old;
    sigfillset(&all);
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigdelset(&all, s);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t thread;
    int rc = real().pthread_create(&thread, &attr, reporterMain, nullptr);
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      g_state.store(kDone, std::memory_order_release);
      errno = saved_errno;
      return;
    }
  }
  waitForReport();
  errno = saved_errno;
}

}  // namespace numaperf
