#include "core/profiling_switch.h"

#include "numaperf/hook_abi.h"

#include "common/env_config.h"
#include "common/hot_path.h"
#include "common/internal_alloc.h"
#include "common/log.h"
#include "core/thread_registry.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

// __numaperf_active (hook_abi.h) is defined in switch_entry_points.cpp:
// symbols of the static core library are not exported from the runtime.

namespace numaperf {

NUMAPERF_HOT_DATA std::atomic<uint8_t> g_switch_mirror{1};

namespace {

// State word: the user's switch, the forced-off bit, open listed regions.
constexpr uint32_t kWanted = 1u << 31;
constexpr uint32_t kForcedOff = 1u << 30;
constexpr uint32_t kOpenMask = kForcedOff - 1;
std::atomic<uint32_t> g_state{kWanted};

// Settings, written once at start-up (before any other thread can read).
SwitchSettings *g_settings = nullptr;
bool g_region_mode = false;

// Flip log: (time, new value). Fixed size so a signal handler can append.
struct Flip {
  std::atomic<uint64_t> ns{0};
  std::atomic<uint8_t> on{0};
  std::atomic<bool> done{false};
};
constexpr uint32_t kFlipCapacity = 4096;
Flip g_flips[kFlipCapacity];
std::atomic<uint32_t> g_flip_count{0};

bool stateOn(uint32_t s) {
  if (s & kForcedOff) return false;
  if (!(s & kWanted)) return false;
  return !g_region_mode || (s & kOpenMask) > 0;
}

void logFlip(uint8_t on) {
  uint32_t i = g_flip_count.fetch_add(1, std::memory_order_relaxed);
  if (i >= kFlipCapacity) return;
  g_flips[i].ns.store(monotonicNanos(), std::memory_order_relaxed);
  g_flips[i].on.store(on, std::memory_order_relaxed);
  g_flips[i].done.store(true, std::memory_order_release);
}

// The runtime's own copy of the flag (see profilingSwitchedOn). Set after
// the flag; a writer that sees the flag change under it sets it again, so
// the last copy written is the flag's last value.
void mirrorFlag() {
  for (;;) {
    uint8_t v = __atomic_load_n(&__numaperf_active, __ATOMIC_SEQ_CST);
    g_switch_mirror.store(v, std::memory_order_seq_cst);
    if (__atomic_load_n(&__numaperf_active, __ATOMIC_SEQ_CST) == v) return;
  }
}

// Makes the flag agree with the state; each real flip is logged once.
void publish() {
  for (;;) {
    uint8_t want = stateOn(g_state.load(std::memory_order_acquire)) ? 1 : 0;
    uint8_t cur = __atomic_load_n(&__numaperf_active, __ATOMIC_RELAXED);
    if (cur == want) return mirrorFlag();
    if (__atomic_compare_exchange_n(&__numaperf_active, &cur, want, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      logFlip(want);
      // The state may have changed again meanwhile: loop until they agree.
    }
  }
}

template <typename F>
void updateState(F f) {
  uint32_t s = g_state.load(std::memory_order_relaxed);
  while (!g_state.compare_exchange_weak(s, f(s), std::memory_order_acq_rel)) {
  }
  publish();
}

bool listed(const char *name) {
  if (!g_region_mode || !name) return false;
  for (const std::string &r : g_settings->regions)
    if (r == "*" || r == name) return true;
  return false;
}

void onToggleSignal(int) {
  int saved = errno;  // the handler must not disturb the interrupted code
  toggleProfilingWanted();
  errno = saved;
}

}  // namespace

int parseSignalName(const char *text) {
  if (!text || !*text) return 0;
  uint64_t n;
  if (parseUnsigned(text, 1, NSIG - 1, &n)) return int(n);
  const char *name = strncasecmp(text, "SIG", 3) == 0 ? text + 3 : text;
  for (int s = 1; s < NSIG; ++s) {
    const char *abbrev = sigabbrev_np(s);
    if (abbrev && strcasecmp(abbrev, name) == 0) return s;
  }
  return 0;
}

std::string signalName(int sig) {
  const char *abbrev = sig > 0 ? sigabbrev_np(sig) : nullptr;
  return abbrev ? std::string("SIG") + abbrev : std::to_string(sig);
}

SwitchSettings loadSwitchSettings() {
  SwitchSettings s;
  if (const char *v = getenv("NUMAPERF_ACTIVE")) {
    if (!parseBool(v, &s.initially_on))
      logMessage("NUMAPERF_ACTIVE='%s' is not 0 or 1; using 1", v);
  }
  if (const char *v = getenv("NUMAPERF_ACTIVE_REGIONS")) {
    std::string list = v;
    size_t pos = 0;
    while (pos <= list.size()) {
      size_t comma = list.find(',', pos);
      if (comma == std::string::npos) comma = list.size();
      std::string name = list.substr(pos, comma - pos);
      if (!name.empty()) s.regions.push_back(name);
      pos = comma + 1;
    }
  }
  if (const char *v = getenv("NUMAPERF_TOGGLE_SIGNAL")) {
    if (*v && strcasecmp(v, "none") != 0 && strcmp(v, "0") != 0) {
      int sig = parseSignalName(v);
      if (sig == 0 || sig == SIGKILL || sig == SIGSTOP)
        logMessage("NUMAPERF_TOGGLE_SIGNAL='%s' is not a signal that can be caught; "
                   "no toggle signal", v);
      else
        s.toggle_signal = sig;
    }
  }
  return s;
}

void initProfilingSwitch(const SwitchSettings &settings, uint64_t now_ns) {
  g_settings = internalNew<SwitchSettings>(settings);
  g_region_mode = !settings.regions.empty();
  // The flag has been on since the program started: set it from the
  // settings, and log the start of a period only if it stays on.
  uint32_t state = settings.initially_on ? kWanted : 0;
  g_state.store(state, std::memory_order_release);
  uint32_t flips = 0;
  if (stateOn(state)) {
    g_flips[0].ns.store(now_ns, std::memory_order_relaxed);
    g_flips[0].on.store(1, std::memory_order_relaxed);
    g_flips[0].done.store(true, std::memory_order_release);
    flips = 1;
  }
  g_flip_count.store(flips, std::memory_order_release);
  __atomic_store_n(&__numaperf_active, stateOn(state) ? 1 : 0, __ATOMIC_RELEASE);
  mirrorFlag();
  if (settings.toggle_signal) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = onToggleSignal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(settings.toggle_signal, &sa, nullptr) != 0)
      logMessage("cannot install the %s handler: %s",
                 signalName(settings.toggle_signal).c_str(), strerror(errno));
  }
}

void setProfilingWanted(bool on) {
  updateState([on](uint32_t s) { return on ? (s | kWanted) : (s & ~kWanted); });
}

void toggleProfilingWanted() {
  updateState([](uint32_t s) { return s ^ kWanted; });
}

void regionBegin(const char *name) {
  if (!listed(name)) return;
  updateState([](uint32_t s) {
    return (s & kOpenMask) == kOpenMask ? s : s + 1;
  });
}

void regionEnd(const char *name) {
  if (!listed(name)) return;
  // An end without a begin is ignored rather than wrapping the count.
  updateState([](uint32_t s) { return (s & kOpenMask) == 0 ? s : s - 1; });
}

void forceProfilingOff() {
  updateState([](uint32_t s) { return s | kForcedOff; });
}

SwitchSummary profilingSwitchSummary(uint64_t start_ns, uint64_t end_ns) {
  SwitchSummary out;
  if (g_settings) out.settings = *g_settings;
  uint32_t n = g_flip_count.load(std::memory_order_acquire);
  out.flips_lost = n > kFlipCapacity ? n - kFlipCapacity : 0;
  n = std::min(n, kFlipCapacity);
  std::vector<std::pair<uint64_t, uint8_t>> flips;
  for (uint32_t i = 0; i < n; ++i)
    if (g_flips[i].done.load(std::memory_order_acquire))
      flips.emplace_back(g_flips[i].ns.load(std::memory_order_relaxed),
                         g_flips[i].on.load(std::memory_order_relaxed));
  std::stable_sort(flips.begin(), flips.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  bool on = false;
  uint64_t since = 0;
  auto close = [&](uint64_t t) {
    uint64_t a = std::max(since, start_ns), b = std::min(t, end_ns);
    if (b > a) {
      out.periods.push_back({a, b});
      out.profiled_ns += b - a;
    }
  };
  for (const auto &[t, v] : flips) {
    if (v && !on) since = t;
    if (!v && on) close(t);
    on = v != 0;
  }
  if (on) close(end_ns);
  out.always_on = out.periods.size() == 1 && out.periods[0].start_ns <= start_ns &&
                  out.periods[0].end_ns >= end_ns;
  return out;
}

void resetProfilingSwitchForTest() {
  g_state.store(kWanted);
  g_flip_count.store(0);
  for (Flip &f : g_flips) f.done.store(false);
  internalDelete(g_settings);
  g_settings = nullptr;
  g_region_mode = false;
  __atomic_store_n(&__numaperf_active, 1, __ATOMIC_RELAXED);
  mirrorFlag();
}

}  // namespace numaperf
