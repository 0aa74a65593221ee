#include "counters/perf_events.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace numaperf::counters {

namespace {

int perfEventOpen(perf_event_attr* attr, pid_t pid, int cpu, int group, unsigned long flags) {
  return static_cast<int>(syscall(SYS_perf_event_open, attr, pid, cpu, group, flags));
}

}  // namespace

int perfEventParanoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int v = 2;
  in >> v;
  return v;
}

std::string openReason(const EventSpec& e, int err) {
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return e.pmu == "cpu" || e.type == PERF_TYPE_HARDWARE || e.type == PERF_TYPE_HW_CACHE || e.type == PERF_TYPE_RAW
                 ? "no hardware counters for it on this host (a VM without a virtual PMU, or another CPU model)"
                 : "not supported by PMU " + e.pmu + " on this host";
    case EACCES:
    case EPERM:
      return "not permitted: kernel.perf_event_paranoid is " + std::to_string(perfEventParanoid()) +
             (e.cpus.empty() ? "" : " and per-CPU (uncore) counting needs CAP_PERFMON or paranoid <= 0");
    case EINVAL:
      return "rejected by the kernel as invalid for PMU " + e.pmu;
    case EMFILE:
      return "too many open files (raise ulimit -n)";
    default:
      return std::strerror(err);
  }
}

Counter::~Counter() {
  if (fd_ >= 0) close(fd_);
}

std::string Counter::open(const EventSpec& e, pid_t pid, int cpu, int groupFd) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = e.type;
  attr.config = e.config;
  attr.config1 = e.config1;
  attr.config2 = e.config2;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  if (pid >= 0) {
    attr.inherit = 1;
    attr.disabled = groupFd < 0;
    attr.enable_on_exec = groupFd < 0;
  }
  attr.exclude_hv = 1;
  int fd = perfEventOpen(&attr, pid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0 && (errno == EACCES || errno == EPERM) && pid >= 0) {
    // As perf does: fall back to user space only when the kernel is off limits.
    attr.exclude_kernel = 1;
    fd = perfEventOpen(&attr, pid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC);
  }
  if (fd < 0) return openReason(e, errno);
  fd_ = fd;
  return "";
}

bool Counter::read(RawCount* out) const {
  uint64_t buf[3];
  if (fd_ < 0 || ::read(fd_, buf, sizeof buf) != static_cast<ssize_t>(sizeof buf)) return false;
  out->value = buf[0];
  out->enabled = buf[1];
  out->running = buf[2];
  return true;
}

}  // namespace numaperf::counters
