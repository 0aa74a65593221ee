// Static memory for the few allocations made while dlsym resolves the real
// allocator. Never freed; free() and realloc() recognise its addresses.
#pragma once

#include <cstddef>

namespace numaperf {

void *bootstrapAlloc(size_t size, size_t alignment);
bool isBootstrapPointer(const void *p);
// Usable size of a bootstrap block (for realloc out of the arena).
size_t bootstrapSize(const void *p);

}  // namespace numaperf
