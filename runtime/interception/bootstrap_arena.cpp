#include "interception/bootstrap_arena.h"

#include "common/hot_path.h"

#include <atomic>
#include <cstdint>
#include <cstring>

namespace numaperf {
namespace {

std::atomic<size_t> g_used{0};

struct Header {
  size_t size;
  size_t pad;
};

}  // namespace

alignas(64) char g_bootstrap_arena[kBootstrapArenaSize];

void *bootstrapAlloc(size_t size, size_t alignment) {
  if (alignment < 16) alignment = 16;
  for (;;) {
    size_t used = g_used.load(std::memory_order_relaxed);
    uintptr_t base = reinterpret_cast<uintptr_t>(g_bootstrap_arena) + used + sizeof(Header);
    uintptr_t start = (base + alignment - 1) & ~(uintptr_t)(alignment - 1);
    size_t end = start + size - reinterpret_cast<uintptr_t>(g_bootstrap_arena);
    if (end > kBootstrapArenaSize) return nullptr;
    if (g_used.compare_exchange_weak(used, end)) {
      reinterpret_cast<Header *>(start)[-1].size = size;
      return reinterpret_cast<void *>(start);  // static storage: zeroed
    }
  }
}

size_t bootstrapSize(const void *p) {
  return reinterpret_cast<const Header *>(p)[-1].size;
}

}  // namespace numaperf
