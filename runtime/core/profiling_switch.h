// Run-time switching of access profiling (docs/switching.md).
//
// Instrumented functions read the byte __numaperf_active at entry and run
// their uninstrumented twin when it is 0. This file owns that byte: it is on
// when the user wants profiling (NUMAPERF_ACTIVE, numaperf_start/stop, the
// toggle signal) and, if NUMAPERF_ACTIVE_REGIONS names regions, one of them
// is open; it is forced off once the runtime is disabled or has reported.
// Every flip is logged (lock-free, usable from a signal handler) so that the
// report can state the periods profiled. Allocation and synchronisation
// tracking do not look at it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace numaperf {

struct SwitchSettings {
  bool initially_on = true;            // NUMAPERF_ACTIVE
  std::vector<std::string> regions;    // NUMAPERF_ACTIVE_REGIONS; "*" = any
  int toggle_signal = 0;               // NUMAPERF_TOGGLE_SIGNAL; 0 = none
};

// Reads NUMAPERF_ACTIVE, NUMAPERF_ACTIVE_REGIONS, NUMAPERF_TOGGLE_SIGNAL
// (bad values: one line, default kept).
SwitchSettings loadSwitchSettings();

// Applies the settings at start-up (time now_ns) and installs the signal
// handler when asked.
void initProfilingSwitch(const SwitchSettings &settings, uint64_t now_ns);

// The user's switch and the region markers.
void setProfilingWanted(bool on);
void toggleProfilingWanted();
void regionBegin(const char *name);
void regionEnd(const char *name);
// For good: the runtime is disabled or finished.
void forceProfilingOff();

// Whether __numaperf_active is on, read from the runtime's own copy: the
// exported flag is reached through the GOT (a non-PIE program may hold the
// copy the twins read), one more page for an interceptor's fast path, which
// tests this before jumping to libc.
extern std::atomic<uint8_t> g_switch_mirror;
inline bool profilingSwitchedOn() { return g_switch_mirror.load(std::memory_order_relaxed) != 0; }

struct ProfiledPeriod {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

struct SwitchSummary {
  SwitchSettings settings;
  std::vector<ProfiledPeriod> periods;  // in time order, clipped to the run
  uint64_t profiled_ns = 0;
  bool always_on = true;  // profiling covered the whole run
  uint64_t flips_lost = 0;  // flips beyond the log's capacity
};

// Periods between start_ns and end_ns (the runtime's life).
SwitchSummary profilingSwitchSummary(uint64_t start_ns, uint64_t end_ns);

// Signal number for "SIGUSR2", "USR2" or "12"; 0 if unknown.
int parseSignalName(const char *text);
// "SIGUSR2" for 12.
std::string signalName(int sig);

// Back to the start-up state (unit tests).
void resetProfilingSwitchForTest();

}  // namespace numaperf
