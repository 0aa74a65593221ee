// Interposed mmap, munmap and mremap: anonymous mappings are program memory
// (custom allocators, large buffers) and become objects with an allocation
// site; file mappings are not tracked. The real functions are resolved here,
// falling back to the raw system call while dlsym itself runs.
#include "core/mempolicy_registry.h"
#include "interception/allocation_tracking.h"

#include <cstdarg>
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default")))

using namespace numaperf;

namespace {

using MmapFn = void *(*)(void *, size_t, int, int, int, off_t);
using MunmapFn = int (*)(void *, size_t);
using MremapFn = void *(*)(void *, size_t, size_t, int, ...);

MmapFn g_mmap = nullptr;
MunmapFn g_munmap = nullptr;
MremapFn g_mremap = nullptr;
__thread bool t_resolving = false;

bool resolved() {
  if (g_mmap && g_munmap && g_mremap) return true;
  if (t_resolving) return false;
  t_resolving = true;
  g_mmap = reinterpret_cast<MmapFn>(dlsym(RTLD_NEXT, "mmap"));
  g_munmap = reinterpret_cast<MunmapFn>(dlsym(RTLD_NEXT, "munmap"));
  g_mremap = reinterpret_cast<MremapFn>(dlsym(RTLD_NEXT, "mremap"));
  t_resolving = false;
  return g_mmap && g_munmap && g_mremap;
}

// The kernel ignores fd for MAP_ANONYMOUS; libnuma's numa_alloc_* pass 0.
bool isAnonymous(int flags, int /*fd*/) { return flags & MAP_ANONYMOUS; }

void *rawMmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
  return r == -1 ? MAP_FAILED : reinterpret_cast<void *>(r);
}

}  // namespace

NP_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (!resolved()) return rawMmap(addr, len, prot, flags, fd, off);
  void *p = g_mmap(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED && isAnonymous(flags, fd) && shouldTrackAllocations()) {
    if (flags & MAP_FIXED) retireMapping(p, len);  // replaces what was there
    recordMapping(p, len);
  }
  return p;
}

NP_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __attribute__((alias("mmap")));

NP_EXPORT int munmap(void *addr, size_t len) {
  if (!resolved()) return int(syscall(SYS_munmap, addr, len));
  // Fold before the real call: afterwards the addresses may be reused.
  if (shouldTrackAllocations()) retireMapping(addr, len);
  int r = g_munmap(addr, len);
  if (r == 0) forgetRangePolicy(reinterpret_cast<uintptr_t>(addr), len);  // mbind ranges die with the pages
  return r;
}

NP_EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...) {
  void *new_addr = nullptr;
  if (flags & MREMAP_FIXED) {
    va_list ap;
    va_start(ap, flags);
    new_addr = va_arg(ap, void *);
    va_end(ap);
  }
  if (!resolved())
    return reinterpret_cast<void *>(syscall(SYS_mremap, old, old_len, new_len, flags, new_addr));
  bool track = shouldTrackAllocations();
  void *p = g_mremap(old, old_len, new_len, flags, new_addr);
  if (track && p != MAP_FAILED) {
    auto base = static_cast<char *>(p);
    if (p == old && new_len < old_len) {
      retireMapping(base + new_len, old_len - new_len);  // shrunk in place
    } else if (p == old) {
      recordMapping(base + old_len, new_len - old_len);  // grown in place: a new part
    } else {
      // Moved: the kernel moves the pages themselves, but the copy is tracked
      // as a new object, first touched afresh (documented limitation).
      retireMapping(old, old_len);
      recordMapping(p, new_len);
    }
  }
  return p;
}
