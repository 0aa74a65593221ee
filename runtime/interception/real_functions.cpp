#include "interception/real_functions.h"

#include "common/log.h"

#include <atomic>
#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

namespace numaperf {
namespace {

RealFunctions g_real;
std::atomic<int> g_state{0};  // 0 unresolved, 1 resolving, 2 resolved
__thread bool t_resolving = false;

template <typename F>
void resolve(F *slot, const char *name) {
  *slot = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

bool resolveRealFunctions() {
  if (g_state.load(std::memory_order_acquire) == 2) return true;
  if (t_resolving) return false;  // dlsym is allocating: use the arena
  int expected = 0;
  if (g_state.compare_exchange_strong(expected, 1)) {
    t_resolving = true;
    resolve(&g_real.malloc, "malloc");
    resolve(&g_real.calloc, "calloc");
    resolve(&g_real.realloc, "realloc");
    resolve(&g_real.free, "free");
    resolve(&g_real.posix_memalign, "posix_memalign");
    resolve(&g_real.aligned_alloc, "aligned_alloc");
    resolve(&g_real.memalign, "memalign");
    resolve(&g_real.valloc, "valloc");
    resolve(&g_real.pvalloc, "pvalloc");
    resolve(&g_real.pthread_create, "pthread_create");
    t_resolving = false;
    if (!g_real.malloc || !g_real.free || !g_real.calloc || !g_real.realloc) {
      logMessage("cannot find the real malloc/free with dlsym; aborting");
      _exit(127);
    }
    g_state.store(2, std::memory_order_release);
    return true;
  }
  // Another thread is resolving: wait for it (resolution is short).
  while (g_state.load(std::memory_order_acquire) != 2) sched_yield();
  return true;
}

const RealFunctions &real() { return g_real; }

}  // namespace numaperf
