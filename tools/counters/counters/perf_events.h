// The perf_event_open layer: one counter (an fd) per event and context,
// grouped so that the kernel schedules a configuration as a unit, read with
// time_enabled / time_running. Per-thread counters follow a child process
// and its threads (inherit, enable_on_exec); uncore counters count per CPU.
#pragma once
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

#include "counters/event_names.h"

namespace numaperf::counters {

struct RawCount {
  uint64_t value = 0, enabled = 0, running = 0;
};

class Counter {
 public:
  Counter() = default;
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;
  Counter(Counter&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  ~Counter();
  // pid >= 0 with cpu -1: that task and its future children, enabled at its
  // exec; pid -1 with cpu >= 0: that CPU, enabled at once. On failure returns
  // a one-line reason (see openReason) and leaves the counter closed.
  std::string open(const EventSpec& e, pid_t pid, int cpu, int groupFd);
  int fd() const { return fd_; }
  bool read(RawCount* out) const;

 private:
  int fd_ = -1;
};

// Why perf_event_open failed with `err` for `e`, in words a user can act on.
std::string openReason(const EventSpec& e, int err);
int perfEventParanoid();

}  // namespace numaperf::counters
