// Interposed C allocation functions. Each calls the real function first and
// then records or retires the block; nothing about the result changes.
#include "common/hot_path.h"
#include "interception/allocation_tracking.h"
#include "interception/bootstrap_arena.h"
#include "interception/held_frees.h"
#include "interception/real_functions.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

#define NP_EXPORT extern "C" __attribute__((visibility("default"))) NUMAPERF_HOT_PATH

using namespace numaperf;

namespace {

NUMAPERF_HOT_PATH void *trackNew(void *p, size_t size) {
  if (p && shouldTrackAllocations()) recordAllocation(p, size);
  return p;
}

// Moves a block served by the bootstrap arena to the real heap.
void *reallocFromBootstrap(void *old, size_t size) {
  void *p = real().malloc(size);
  if (p) {
    size_t n = bootstrapSize(old);
    memcpy(p, old, n < size ? n : size);
  }
  return trackNew(p, size);
}

}  // namespace

NP_EXPORT void *malloc(size_t size) {
  if (!resolveRealFunctions()) return bootstrapAlloc(size, 16);
  void *p = real().malloc(size);
  if (!p || recordRepeatedAllocation(p, size, __builtin_frame_address(0))) return p;
  if (shouldTrackAllocations()) recordAllocation(p, size, __builtin_frame_address(0));
  return p;
}

NP_EXPORT void *calloc(size_t count, size_t size) {
  if (!resolveRealFunctions()) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) return nullptr;
    return bootstrapAlloc(total, 16);  // static storage is zeroed
  }
  return trackNew(real().calloc(count, size), count * size);
}

NP_EXPORT void free(void *p) {
  if (!p || isBootstrapPointer(p)) return;
  resolveRealFunctions();
  uint64_t size = 0;
  if (shouldTrackAllocations()) {
    if (holdFree(p)) return;
    size = retireAllocation(p, /*forget_pages=*/true);
  }
  real().free(p);
  if (size) afterFree(p, size);
}

NP_EXPORT void *realloc(void *old, size_t size) {
  if (!resolveRealFunctions()) {
    void *p = bootstrapAlloc(size, 16);
    if (p && old) memcpy(p, old, bootstrapSize(old) < size ? bootstrapSize(old) : size);
    return p;
  }
  if (old && isBootstrapPointer(old)) return reallocFromBootstrap(old, size);
  bool track = shouldTrackAllocations();
  // Retire before the real call: once realloc returns, another thread may
  // already be given the old addresses. Pages keep their first toucher,
  // since the data may stay where it is.
  uint64_t old_size = track && old ? retireAllocation(old, /*forget_pages=*/false) : 0;
  void *p = real().realloc(old, size);
  if (track) {
    // Moved: the old addresses are free now, as after free().
    if (p && p != old && old_size) afterMove(old, old_size);
    if (p) recordAllocation(p, size);
    else if (old && size != 0) recordAllocation(old, size);  // failed: old block lives on
  }
  return p;
}

NP_EXPORT int posix_memalign(void **out, size_t alignment, size_t size) {
  if (!resolveRealFunctions()) {
    void *p = bootstrapAlloc(size, alignment);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
  }
  int rc = real().posix_memalign(out, alignment, size);
  if (rc == 0) trackNew(*out, size);
  return rc;
}

NP_EXPORT void *aligned_alloc(size_t alignment, size_t size) {
  if (!resolveRealFunctions()) return bootstrapAlloc(size, alignment);
  return trackNew(real().aligned_alloc(alignment, size), size);
}

NP_EXPORT void *memalign(size_t alignment, size_t size) {
  if (!resolveRealFunctions()) return bootstrapAlloc(size, alignment);
  return trackNew(real().memalign(alignment, size), size);
}

NP_EXPORT void *valloc(size_t size) {
  if (!resolveRealFunctions()) return bootstrapAlloc(size, 4096);
  return trackNew(real().valloc(size), size);
}

NP_EXPORT void *pvalloc(size_t size) {
  if (!resolveRealFunctions()) return bootstrapAlloc(size, 4096);
  size_t page = 4096;
  return trackNew(real().pvalloc(size), (size + page - 1) / page * page);
}
