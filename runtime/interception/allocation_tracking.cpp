#include "interception/allocation_tracking.h"

#include "core/object_registry.h"
#include "core/runtime_state.h"
#include "core/stack_capture.h"
#include "core/stack_store.h"

namespace numaperf {

bool shouldTrackAllocations() {
  if (RuntimeScope::inside()) return false;
  return profilingActive() || ensureInitialized();
}

void recordAllocation(void *p, size_t size) {
  RuntimeScope scope;
  ThreadState *t = currentThread();
  uintptr_t frames[64];
  uint32_t depth = captureStack(frames, runtimeConfig().stack_depth, t ? t->stack_high : 0);
  StackRecord *site = stackStore().intern(frames, depth);
  if (site) site->noteAllocation(size);
  objectRegistry().addHeap(reinterpret_cast<uintptr_t>(p), size, site);
}

void retireAllocation(void *p, bool forget_pages) {
  RuntimeScope scope;
  objectRegistry().removeHeap(reinterpret_cast<uintptr_t>(p), forget_pages);
}

}  // namespace numaperf
