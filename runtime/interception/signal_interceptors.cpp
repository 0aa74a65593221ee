// Signals that end the process by default (SIGSEGV, SIGABRT, SIGINT,
// SIGTERM, ...) would end it without the report. While the program leaves
// such a signal at SIG_DFL, the runtime keeps its own handler there: it
// writes the report (best effort, bounded: core/abrupt_exit.h), restores
// SIG_DFL and raises the signal again, so the process ends with exactly the
// status it would have had. sigaction/signal are interposed so the program
// still sees SIG_DFL for those signals, and any handler or SIG_IGN it sets
// replaces ours outright (its handlers run unchanged, with no wrapper).
// Signals ignored at start-up (nohup, background jobs) stay ignored.
#include "core/abrupt_exit.h"
#include "core/runtime_state.h"
#include "interception/process_life.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dlfcn.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace numaperf;

namespace {

using SigactionFn = int (*)(int, const struct sigaction *, struct sigaction *);
using SignalFn = sighandler_t (*)(int, sighandler_t);

// Default action: terminate (with or without a core dump). SIGKILL and
// SIGSTOP cannot be caught; SIGTRAP is left to debuggers.
constexpr int kManaged[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGABRT, SIGBUS,
                            SIGFPE,  SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM,
                            SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS};

std::atomic<bool> g_ours[NSIG];  // our handler is installed for this signal
std::atomic<SigactionFn> g_real_sigaction{nullptr};

bool managed(int sig) {
  for (int s : kManaged)
    if (s == sig) return true;
  return false;
}

SigactionFn realSigaction() {
  SigactionFn f = g_real_sigaction.load(std::memory_order_acquire);
  if (!f) {
    f = reinterpret_cast<SigactionFn>(dlsym(RTLD_NEXT, "sigaction"));
    g_real_sigaction.store(f, std::memory_order_release);
  }
  return f;
}

void onTerminatingSignal(int sig, siginfo_t *, void *) {
  reportBeforeAbruptExit();
  // End as the default action would: SIG_DFL, then the signal again. It is
  // blocked while this handler runs and is delivered as the handler returns
  // (a fault would also recur on the faulting instruction).
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  g_ours[sig].store(false, std::memory_order_relaxed);
  realSigaction()(sig, &dfl, nullptr);
  raise(sig);
}

struct sigaction ourAction() {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = onTerminatingSignal;
  // SA_ONSTACK: a stack overflow still reaches the handler when the thread
  // has an alternate signal stack (the program's own, if it set one).
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  return sa;
}

// What the program sees while our handler stands in for SIG_DFL.
void defaultView(struct sigaction *out) {
  memset(out, 0, sizeof *out);
  out->sa_handler = SIG_DFL;
  sigemptyset(&out->sa_mask);
}

bool wantsDefault(const struct sigaction *act) {
  return act->sa_handler == SIG_DFL;  // same bits whether SA_SIGINFO or not
}

// Installs or restores the disposition of `sig` and returns the program's
// view of the previous one.
int interposedSigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  SigactionFn real_fn = realSigaction();
  if (!real_fn) {
    errno = ENOSYS;
    return -1;
  }
  if (sig <= 0 || sig >= NSIG || !managed(sig)) return real_fn(sig, act, old);
  bool was_ours = g_ours[sig].load(std::memory_order_acquire);
  struct sigaction previous;
  int rc;
  if (act && wantsDefault(act) && profilingActive()) {
    // SIG_DFL requested: keep (or put back) our stand-in.
    struct sigaction ours = ourAction();
    rc = real_fn(sig, was_ours ? nullptr : &ours, &previous);
    if (rc == 0) g_ours[sig].store(true, std::memory_order_release);
  } else {
    rc = real_fn(sig, act, &previous);
    if (rc == 0 && act) g_ours[sig].store(false, std::memory_order_release);
  }
  if (rc == 0 && old) {
    if (was_ours)
      defaultView(old);
    else
      *old = previous;
  }
  return rc;
}

// signal() with glibc's BSD semantics (restart, block the signal in its
// handler); sysv_signal() with System V's (one shot, not blocked).
sighandler_t setHandler(int sig, sighandler_t handler, bool bsd) {
  struct sigaction act, old;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  if (bsd) {
    if (sig > 0 && sig < NSIG) sigaddset(&act.sa_mask, sig);
    act.sa_flags = SA_RESTART;
  } else {
    act.sa_flags = SA_RESETHAND | SA_NODEFER;
  }
  if (handler == SIG_ERR || interposedSigaction(sig, &act, &old) < 0) {
    errno = EINVAL;
    return SIG_ERR;
  }
  return old.sa_handler;
}

}  // namespace

namespace numaperf {

void installSignalHandlers() {
  SigactionFn real_fn = realSigaction();
  if (!real_fn) return;
  for (int sig : kManaged) {
    struct sigaction current;
    if (real_fn(sig, nullptr, &current) != 0) continue;
    if (current.sa_handler != SIG_DFL) continue;  // the program's, or ignored
    struct sigaction ours = ourAction();
    if (real_fn(sig, &ours, nullptr) == 0) g_ours[sig].store(true, std::memory_order_release);
  }
}

}  // namespace numaperf

NP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  return interposedSigaction(sig, act, old);
}
NP_EXPORT sighandler_t signal(int sig, sighandler_t handler) { return setHandler(sig, handler, true); }
NP_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler) {
  return setHandler(sig, handler, true);
}
NP_EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler) {
  return setHandler(sig, handler, false);
}
NP_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t handler) {
  return setHandler(sig, handler, false);
}
