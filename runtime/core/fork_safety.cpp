#include "core/fork_safety.h"

#include "common/internal_alloc.h"
#include "core/mapping_registry.h"
#include "core/mempolicy_registry.h"
#include "core/object_registry.h"
#include "core/page_sampling.h"
#include "core/shared_page_cache.h"
#include "core/thread_registry.h"

#include <pthread.h>

namespace numaperf {
namespace {

// Order: registries before the allocator they allocate from.
void beforeFork() {
  threadRegistry().lockAll();
  mappingRegistry().lockAll();
  objectRegistry().lockAll();
  sampledRanges().lockAll();
  policyRegistryLock();
  sharedPageCacheLockAll();
  internalAllocLockAll();
}

void afterForkInParent() {
  internalAllocUnlockAll();
  sharedPageCacheUnlockAll();
  policyRegistryUnlock();
  sampledRanges().unlockAll();
  objectRegistry().unlockAll();
  mappingRegistry().unlockAll();
  threadRegistry().unlockAll();
}

void afterForkInChild() {
  afterForkInParent();
  threadRegistry().markOtherThreadsExited();
}

}  // namespace

void installForkHandlers() { pthread_atfork(beforeFork, afterForkInParent, afterForkInChild); }

}  // namespace numaperf
