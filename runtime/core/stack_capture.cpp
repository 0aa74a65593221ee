#include "core/stack_capture.h"

#include "common/hot_path.h"

#include <dlfcn.h>
#include <link.h>

namespace numaperf {
namespace {

NUMAPERF_HOT_DATA uintptr_t g_self_lo = 0;
NUMAPERF_HOT_DATA uintptr_t g_self_hi = 0;

int findSelf(struct dl_phdr_info *info, size_t, void *data) {
  auto probe = reinterpret_cast<uintptr_t>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (probe >= lo && probe < hi) {
      g_self_lo = lo;
      g_self_hi = hi;
      return 1;
    }
  }
  return 0;
}

NUMAPERF_HOT_PATH bool insideRuntime(uintptr_t pc) { return pc >= g_self_lo && pc < g_self_hi; }

}  // namespace

void initStackCapture() {
  dl_iterate_phdr(findSelf, reinterpret_cast<void *>(&initStackCapture));
}

NUMAPERF_HOT_PATH uint32_t captureStack(uintptr_t *frames, uint32_t max_depth, uintptr_t stack_high) {
  auto *fp = static_cast<uintptr_t *>(__builtin_frame_address(0));
  uintptr_t low = reinterpret_cast<uintptr_t>(fp);
  if (stack_high == 0) return 0;  // bounds unknown: reading could fault
  uint32_t depth = 0;
  while (depth < max_depth) {
    auto addr = reinterpret_cast<uintptr_t>(fp);
    if (addr < low || addr + 2 * sizeof(uintptr_t) > stack_high || (addr & 7)) break;
    uintptr_t pc = fp[1];
    if (pc == 0) break;
    if (!insideRuntime(pc)) frames[depth++] = pc;
    auto *next = reinterpret_cast<uintptr_t *>(fp[0]);
    if (next <= fp) break;  // the chain must move up the stack
    fp = next;
  }
  return depth;
}

}  // namespace numaperf
