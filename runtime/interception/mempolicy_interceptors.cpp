// Interposed memory-policy calls: mbind and set_mempolicy (exported by
// libnuma, which also calls them through its PLT from numa_alloc_interleaved,
// numa_interleave_memory, numa_set_interleave_mask and the rest, so those are
// seen too; tests/e2e/programs/signature_interleaved.c checks it). Each call
// goes to the real function (libnuma's, else the system call) with the same
// arguments and returns its result; a successful interleave policy is
// recorded for the bandwidth signature (core/mempolicy_registry.h).
#include "core/mempolicy_registry.h"
#include "core/runtime_state.h"

#include <cerrno>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace numaperf;

namespace {

using MbindFn = long (*)(void *, unsigned long, int, const unsigned long *, unsigned long,
                         unsigned);
using SetMempolicyFn = long (*)(int, const unsigned long *, unsigned long);

constexpr int kModeFlags = (1 << 15) | (1 << 14) | (1 << 13);  // MPOL_F_STATIC/RELATIVE_NODES, NUMA_BALANCING
constexpr int kInterleave = 3;          // MPOL_INTERLEAVE
constexpr int kWeightedInterleave = 6;  // MPOL_WEIGHTED_INTERLEAVE (Linux 6.9)

MemPolicy policyOf(int mode) {
  int m = mode & ~kModeFlags;
  return m == kInterleave || m == kWeightedInterleave ? MemPolicy::kInterleave : MemPolicy::kOther;
}

template <typename F>
F next(const char *name) {
  static_assert(sizeof(F) == sizeof(void *));
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

uint32_t callerTag() {
  if (!profilingActive()) return 0;
  ThreadState *t = ThreadRegistry::current();
  if (!t) t = currentThread();
  return t ? t->owner_tag : 0;
}

// A policy inherited from the parent (numactl --interleave) is the process
// default until the program sets its own.
__attribute__((constructor)) void captureInheritedPolicy() {
  int mode = 0;
  if (syscall(SYS_get_mempolicy, &mode, nullptr, 0UL, nullptr, 0UL) == 0 &&
      policyOf(mode) == MemPolicy::kInterleave)
    recordTaskPolicy(0, MemPolicy::kInterleave);
}

}  // namespace

NP_EXPORT long mbind(void *start, unsigned long len, int mode, const unsigned long *nmask,
                     unsigned long maxnode, unsigned flags) {
  static MbindFn real_mbind = next<MbindFn>("mbind");
  long r = real_mbind ? real_mbind(start, len, mode, nmask, maxnode, flags)
                      : syscall(SYS_mbind, start, len, mode, nmask, maxnode, flags);
  if (r == 0) {
    int saved = errno;
    // MPOL_DEFAULT (0) hands the range back to the task policy.
    MemPolicy p = (mode & ~kModeFlags) == 0 ? MemPolicy::kUnset : policyOf(mode);
    recordRangePolicy(reinterpret_cast<uintptr_t>(start), len, p);
    errno = saved;
  }
  return r;
}

NP_EXPORT long set_mempolicy(int mode, const unsigned long *nmask, unsigned long maxnode) {
  static SetMempolicyFn real_set = next<SetMempolicyFn>("set_mempolicy");
  long r = real_set ? real_set(mode, nmask, maxnode)
                    : syscall(SYS_set_mempolicy, mode, nmask, maxnode);
  if (r == 0) {
    int saved = errno;
    recordTaskPolicy(callerTag(), policyOf(mode));
    errno = saved;
  }
  return r;
}
