// Ends that skip the destructors, and so the report written from the
// runtime's destructor: _exit and _Exit called by the program (glibc's exit
// reaches _exit internally, not through these), quick_exit (through an
// at_quick_exit handler), and vfork, replaced by fork.
//
// vfork: the child of a real vfork shares the parent's memory and may only
// call _exit or exec; writing a report there (or running any runtime code)
// would corrupt the parent. fork is a valid vfork (POSIX allows it, and
// ThreadSanitizer does the same), keeps the program's behaviour for every
// correct use, and makes the child an ordinary forked child (fork_safety.h).
#include "core/abrupt_exit.h"
#include "interception/process_life.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace numaperf;

namespace {

using ExitFn = void (*)(int);

[[noreturn]] void endProcess(const char *name, int status) {
  auto real_fn = reinterpret_cast<ExitFn>(dlsym(RTLD_NEXT, name));
  if (real_fn) real_fn(status);
  for (;;) syscall(SYS_exit_group, status);
}

void reportAtQuickExit() { reportBeforeAbruptExit(); }

}  // namespace

namespace numaperf {

void installQuickExitReport() { at_quick_exit(reportAtQuickExit); }

}  // namespace numaperf

NP_EXPORT void _exit(int status) {
  reportBeforeAbruptExit();
  endProcess("_exit", status);
}

NP_EXPORT void _Exit(int status) {
  reportBeforeAbruptExit();
  endProcess("_Exit", status);
}

NP_EXPORT pid_t vfork(void) { return fork(); }
