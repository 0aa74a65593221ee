// Static memory for the few allocations made while dlsym resolves the real
// allocator. Never freed; free() and realloc() recognise its addresses.
#pragma once

#include <cstddef>
#include <cstdint>

namespace numaperf {

void *bootstrapAlloc(size_t size, size_t alignment);

// The arena (static storage: its address is a link-time constant, so the
// check every free makes needs no load and no call).
constexpr size_t kBootstrapArenaSize = 256 * 1024;
extern char g_bootstrap_arena[kBootstrapArenaSize] __attribute__((visibility("hidden")));
inline bool isBootstrapPointer(const void *p) {
  return reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(g_bootstrap_arena) <
         kBootstrapArenaSize;
}
// Usable size of a bootstrap block (for realloc out of the arena).
size_t bootstrapSize(const void *p);

}  // namespace numaperf
