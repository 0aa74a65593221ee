#include "core/runtime_state.h"

#include "analysis/report_builder.h"
#include "common/hot_path.h"
#include "common/internal_alloc.h"
#include "common/log.h"
#include "common/memory_budget.h"
#include "common/stderr_identity.h"
#include "core/fork_safety.h"
#include "core/object_fold.h"
#include "core/object_registry.h"
#include "core/overhead_meter.h"
#include "core/line_windows.h"
#include "core/page_sampling.h"
#include "core/profiling_switch.h"
#include "core/shadow_memory.h"
#include "core/sharing_tracker.h"
#include "core/stack_capture.h"
#include "interception/process_life.h"
#include "interception/real_functions.h"

#include <pthread.h>
#include <sched.h>

namespace numaperf {

NUMAPERF_HOT_DATA std::atomic<int> g_runtime_status{kUninitialized};
__thread int RuntimeScope::depth_ = 0;

namespace {

NUMAPERF_HOT_DATA RuntimeConfig *g_config = nullptr;
uint64_t g_start_ns = 0;
std::atomic<bool> g_reported{false};

// The calling thread's stack (for the main thread, as far as it may grow).
ThreadState *registerWithStack(void *start_routine) {
  pthread_attr_t attr;
  void *addr = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
  }
  const auto low = reinterpret_cast<uintptr_t>(addr);
  return threadRegistry().registerCurrentThread(start_routine, addr ? low + size : 0, low);
}

bool initialize() {
  RuntimeScope scope;
  resolveRealFunctions();
  rememberStderr();
  g_start_ns = monotonicNanos();
  startOverheadClock();
  g_config = internalNew<RuntimeConfig>(loadRuntimeConfig());
  if (!g_config) return false;
  if (!shadowMemory().init()) {
    logMessage("cannot reserve %llu GiB of address space for shadow memory "
               "(ulimit -v or vm.overcommit_memory=2?); profiling is off",
               (unsigned long long)(ShadowMemory::kPages * sizeof(PageEntry) >> 30));
    return false;
  }
  threadRegistry().setFinishedRecordCap(g_config->thread_records);
  setMemoryLimitBytes(uint64_t(g_config->memory_limit_mib) << 20);
  setWordDetailThreshold(g_config->word_detail_writes);
  shadowMemory().setDetailThreshold(g_config->page_detail_threshold);
  setPageSampling({g_config->page_sample_rate, uint64_t(g_config->page_sample_min_kib) << 10,
                   g_config->page_sample_site_objects});
  setLineWindows({g_config->line_window_rate});
  setSharingDominanceShare(g_config->sharing_share);
  initStackCapture();
  objectRegistry().setSpacedAllocator(realMallocIsGlibc());
  installForkHandlers();
  registerWithStack(nullptr);
  captureProcessInfo();
  initProfilingSwitch(loadSwitchSettings(), g_start_ns);
  installSignalHandlers();
  installQuickExitReport();
  return true;
}

}  // namespace

NUMAPERF_HOT_PATH bool ensureInitialized() {
  int s = g_runtime_status.load(std::memory_order_acquire);
  if (s == kActive) return true;
  if (s != kUninitialized) return false;  // disabled, finished, or in progress
  if (!g_runtime_status.compare_exchange_strong(s, kInitializing)) {
    // Another thread initialises; wait unless it is this thread (recursion).
    while (g_runtime_status.load(std::memory_order_acquire) == kInitializing) {
      if (RuntimeScope::inside()) return false;
      sched_yield();
    }
    return profilingActive();
  }
  bool ok = initialize();
  if (!ok) forceProfilingOff();  // instrumented code then runs its plain twins
  g_runtime_status.store(ok ? kActive : kDisabled, std::memory_order_release);
  return ok;
}

void disableProfiling(const char *why) {
  int s = g_runtime_status.exchange(kDisabled);
  forceProfilingOff();
  if (s != kDisabled && s != kFinished) logMessage("%s; profiling is off", why);
}

const RuntimeConfig &runtimeConfig() { return *g_config; }
uint64_t runtimeStartNanos() { return g_start_ns; }

NUMAPERF_HOT_PATH ThreadState *currentThread() {
  ThreadState *t = ThreadRegistry::current();
  if (t) return t;
  RuntimeScope scope;
  return registerWithStack(nullptr);
}

ThreadState *registerStartedThread(void *start_routine) {
  RuntimeScope scope;
  return registerWithStack(start_routine);
}

void finishAndReport() {
  if (g_reported.exchange(true)) return;
  int expected = kActive;
  if (!g_runtime_status.compare_exchange_strong(expected, kFinished)) return;
  RuntimeScope scope;
  threadRegistry().markCurrentThreadExited(/*process_end=*/true);
  uint64_t end_ns = monotonicNanos();
  forceProfilingOff();  // hooks after the report would count for nothing
  writeReport(*g_config, g_start_ns, end_ns);
}

}  // namespace numaperf

// Start as early as possible so that the main thread gets index 0, and write
// the report after the program's own destructors (this library is
// initialised before the executable, so it is finalised after it).
__attribute__((constructor(101))) static void numaperfConstructor() {
  numaperf::ensureInitialized();
}
__attribute__((destructor(101))) static void numaperfDestructor() {
  numaperf::finishAndReport();
}
