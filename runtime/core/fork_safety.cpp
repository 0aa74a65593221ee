#include "core/fork_safety.h"

#include "common/internal_alloc.h"
#include "core/mapping_registry.h"
#include "core/mempolicy_registry.h"
#include "core/object_registry.h"
#include "core/page_sampling.h"
#include "core/shared_page_cache.h"
#include "core/thread_registry.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

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
  if (ThreadState *self = ThreadRegistry::current()) {
    // The child's thread is a new task: its own tid, and the scheduler's
    // migration count (interception/thread_counters.cpp) starts at zero.
    self->os_tid = static_cast<int>(syscall(SYS_gettid));
    if (self->migration_base.load(std::memory_order_relaxed) >= 0)
      self->migration_base.store(0, std::memory_order_relaxed);
  }
}

}  // namespace

void installForkHandlers() { pthread_atfork(beforeFork, afterForkInParent, afterForkInChild); }

}  // namespace numaperf
