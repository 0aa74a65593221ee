#include "core/stack_capture.h"

#include "common/hot_path.h"

#include <dlfcn.h>
#include <link.h>

namespace numaperf {

namespace {

// libnumaperf's own code, set by initStackCapture (hot data).
NUMAPERF_HOT_DATA uintptr_t g_runtime_text_lo = 0;
NUMAPERF_HOT_DATA uintptr_t g_runtime_text_hi = 0;
inline bool insideRuntime(uintptr_t pc) { return pc >= g_runtime_text_lo && pc < g_runtime_text_hi; }

int findSelf(struct dl_phdr_info *info, size_t, void *data) {
  auto probe = reinterpret_cast<uintptr_t>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (probe >= lo && probe < hi) {
      g_runtime_text_lo = lo;
      g_runtime_text_hi = hi;
      return 1;
    }
  }
  return 0;
}

}  // namespace

void initStackCapture() {
  dl_iterate_phdr(findSelf, reinterpret_cast<void *>(&initStackCapture));
}

NUMAPERF_HOT_PATH uint32_t walkFrames(const uintptr_t *fp, uintptr_t stack_low, uintptr_t stack_high,
                                      uint32_t max_depth, uintptr_t *frames, FrameChain *chain) {
  const auto low = reinterpret_cast<uintptr_t>(fp);
  if (chain && low < stack_low) {
    chain->len = FrameChain::kMax + 1;  // not on the thread's own stack
    chain = nullptr;
  }
  uint32_t depth = 0, steps = 0;
  bool on_null = false;
  while (depth < max_depth) {
    const auto addr = reinterpret_cast<uintptr_t>(fp);
    if (addr < low || addr + 2 * sizeof(uintptr_t) > stack_high || (addr & 7)) break;
    const uintptr_t pc = fp[1];
    if (pc == 0) {
      on_null = true;
      break;
    }
    if (chain) {
      if (steps == FrameChain::kMax) {
        chain->len = FrameChain::kMax + 1;  // too long to note
        chain = nullptr;
      } else {
        chain->fp[steps] = addr;
        chain->link[steps] = {fp[0], pc};
      }
    }
    ++steps;
    if (!insideRuntime(pc)) {
      if (frames) frames[depth] = pc;
      ++depth;
    }
    const auto *next = reinterpret_cast<const uintptr_t *>(fp[0]);
    fp = next;
    if (reinterpret_cast<uintptr_t>(next) <= addr) break;  // the chain must move up the stack
  }
  if (chain) {
    chain->len = steps;
    chain->ends_on_null = on_null;
    chain->fp[steps] = reinterpret_cast<uintptr_t>(fp);
  }
  return depth;
}

NUMAPERF_HOT_PATH uint32_t captureStack(uintptr_t *frames, uint32_t max_depth, uintptr_t stack_high) {
  if (stack_high == 0) return 0;  // bounds unknown: reading could fault
  return walkFrames(static_cast<const uintptr_t *>(__builtin_frame_address(0)), 0, stack_high,
                    max_depth, frames, nullptr);
}

}  // namespace numaperf
