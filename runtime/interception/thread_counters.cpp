#include "interception/thread_counters.h"

#include "core/runtime_state.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace numaperf {
namespace {

// 0 = unknown / working, otherwise the errno of the first failure.
std::atomic<int> g_open_errno{0};

int openCounter(bool exclude_kernel) {
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_MIGRATIONS;
  attr.inherit = 0;
  attr.exclude_kernel = exclude_kernel ? 1 : 0;
  attr.exclude_hv = 1;
  // pid 0 = the calling thread, any CPU.
  return static_cast<int>(
      syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// Reads and closes the counter if this caller is the one that takes the fd.
void takeAndRead(ThreadState *t) {
  int fd = t->migration_fd.exchange(-1, std::memory_order_acq_rel);
  if (fd < 0) return;
  uint64_t value = 0;
  ssize_t n;
  do {
    n = read(fd, &value, sizeof value);
  } while (n < 0 && errno == EINTR);
  if (n == ssize_t(sizeof value))
    t->observed_migrations.store(int64_t(value), std::memory_order_release);
  close(fd);
}

}  // namespace

void openMigrationCounter(ThreadState *t) {
  if (!t || t->migration_fd.load(std::memory_order_relaxed) >= 0) return;
  if (g_open_errno.load(std::memory_order_relaxed) != 0) return;
  int saved = errno;
  // The migration event fires in the scheduler, i.e. in kernel context, so
  // exclude_kernel would hide it; it is a software event of our own thread,
  // which perf_event_paranoid <= 2 allows.
  int fd = openCounter(false);
  if (fd < 0) {
    int e = errno ? errno : EINVAL;
    int expected = 0;
    g_open_errno.compare_exchange_strong(expected, e);
  } else {
    t->migration_fd.store(fd, std::memory_order_release);
  }
  errno = saved;
}

void closeMigrationCounter(ThreadState *t) {
  if (!t) return;
  int saved = errno;
  takeAndRead(t);
  errno = saved;
}

void collectMigrationCounters() {
  threadRegistry().forEach([](ThreadState &t) { takeAndRead(&t); });
}

std::string migrationCounterProblem() {
  int e = g_open_errno.load(std::memory_order_acquire);
  if (e == 0) return std::string();
  return std::string("perf_event_open(cpu-migrations) failed: ") + strerror(e);
}

}  // namespace numaperf

// The main thread is registered by the runtime's constructor (priority 101);
// this one runs right after it in the same library.
__attribute__((constructor(102))) static void numaperfOpenMainCounter() {
  if (numaperf::profilingActive())
    numaperf::openMigrationCounter(numaperf::ThreadRegistry::current());
}
