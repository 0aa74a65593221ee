#include "interception/thread_counters.h"

#include "core/runtime_state.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace numaperf {
namespace {

// 0 = unknown / working, otherwise the errno of the first failure.
std::atomic<int> g_open_errno{0};
// Whether the scheduler's own count is readable: 0 unknown, 1 yes, 2 no.
std::atomic<int> g_sched_file{0};

// The scheduler's count of the thread's migrations, from its sched file in
// /proc (`se.nr_migrations`, kernels built with CONFIG_SCHED_DEBUG, as
// Debian's, Ubuntu's and Fedora's are); -1 if unreadable. `path` names the
// file: /proc/thread-self/sched for the caller, /proc/self/task/TID/sched
// for another thread of the process.
int64_t schedMigrations(const char *path) {
  int fd;
  do {
    fd = open(path, O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return -1;
  // The count is the fourth line, after the thread's name and three
  // others: the first KiB holds it (and keeps the trampoline's stack use
  // small for threads created with tiny stacks).
  char buf[1024];
  size_t len = 0;
  while (len < sizeof buf - 1) {
    ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    len += size_t(n);
  }
  close(fd);
  buf[len] = '\0';
  static const char kKey[] = "\nse.nr_migrations";
  const char *at = strstr(buf, kKey);
  if (!at) return -1;
  at += sizeof kKey - 1;
  while (*at == ' ' || *at == '\t' || *at == ':') ++at;
  if (*at < '0' || *at > '9') return -1;
  char *end = nullptr;
  unsigned long long v = strtoull(at, &end, 10);
  return end != at ? int64_t(v) : -1;
}

int64_t ownSchedMigrations() { return schedMigrations("/proc/thread-self/sched"); }

int64_t threadSchedMigrations(int os_tid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/sched", os_tid);
  return schedMigrations(path);
}

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

// Takes the final count if this caller is the one that takes the base or
// the fd; `now` reads the scheduler's count (the thread's own at its end,
// another's at report time).
template <typename ReadNow>
void takeAndRead(ThreadState *t, ReadNow now) {
  int64_t base = t->migration_base.exchange(-1, std::memory_order_acq_rel);
  if (base >= 0) {
    int64_t value = now();
    if (value >= base) t->observed_migrations.store(value - base, std::memory_order_release);
    return;
  }
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

void openMigrationCounter(ThreadState *t, bool fresh) {
  if (!t || t->migration_fd.load(std::memory_order_relaxed) >= 0 ||
      t->migration_base.load(std::memory_order_relaxed) >= 0)
    return;
  int saved = errno;
  // The scheduler's count first: nothing runs at each context switch, where
  // a perf counter attached to the thread is scheduled out and in (a
  // pipeline handing blocks over condition variables took 1.57 s of CPU
  // instead of 1.35 s with profiling off; docs/benchmarks.md, "Session 20").
  const int sched_file = g_sched_file.load(std::memory_order_relaxed);
  if (fresh && sched_file == 1) {
    // A new task starts counting at zero (its first placement by the
    // scheduler may add one): one read of the file per thread, at its end,
    // keeps thread churn cheap.
    t->migration_base.store(0, std::memory_order_release);
    errno = saved;
    return;
  }
  if (sched_file != 2) {
    int64_t base = ownSchedMigrations();
    int expected = 0;
    g_sched_file.compare_exchange_strong(expected, base >= 0 ? 1 : 2);
    if (base >= 0) {
      t->migration_base.store(base, std::memory_order_release);
      errno = saved;
      return;
    }
  }
  if (g_open_errno.load(std::memory_order_relaxed) != 0) {
    errno = saved;
    return;
  }
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
  takeAndRead(t, [] { return ownSchedMigrations(); });
  errno = saved;
}

void collectMigrationCounters() {
  int saved = errno;
  threadRegistry().forEach([](ThreadState &t) {
    const int tid = t.os_tid;
    takeAndRead(&t, [tid] { return tid > 0 ? threadSchedMigrations(tid) : int64_t(-1); });
  });
  errno = saved;
}

std::string migrationCounterProblem() {
  if (g_sched_file.load(std::memory_order_acquire) == 1) return std::string();
  int e = g_open_errno.load(std::memory_order_acquire);
  if (e == 0) return std::string();
  return std::string("no se.nr_migrations in /proc/thread-self/sched, and "
                     "perf_event_open(cpu-migrations) failed: ") +
         strerror(e);
}

}  // namespace numaperf

// The main thread is registered by the runtime's constructor (priority 101);
// this one runs right after it in the same library.
__attribute__((constructor(102))) static void numaperfOpenMainCounter() {
  if (numaperf::profilingActive())
    numaperf::openMigrationCounter(numaperf::ThreadRegistry::current());
}
