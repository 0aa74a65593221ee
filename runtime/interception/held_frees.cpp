#include "interception/held_frees.h"

#include "common/hot_path.h"
#include "core/object_fold.h"
#include "interception/allocation_tracking.h"
#include "interception/real_functions.h"

#include <cstdint>
#include <sys/syscall.h>
#include <unistd.h>

namespace numaperf {

namespace {

enum class HoldState : uint8_t {
  kNever,    // a thread whose end the runtime does not see
  kHolding,  // may hold
  kStopped,  // ending, or something was profiled (for good): blocks passed on
};

// A block freed next to the one freed before (a program freeing what it
// has just allocated, often the same block again): going now keeps the
// allocator's reuse order.
constexpr unsigned kNearShift = 12;  // 4 KiB

struct HeldFrees {
  void *blocks[kHeldFrees];
  unsigned count;
  HoldState state;
  bool passing;           // in passOn: a free made meanwhile is not held
  uintptr_t last_region;  // address >> kNearShift of the last free
};

__thread HeldFrees tls_held __attribute__((tls_model("initial-exec")));

// Retires every held block, then frees them, one after another.
NUMAPERF_HOT_PATH void passOn(HeldFrees &h) {
  const unsigned n = h.count;
  h.passing = true;
  uint64_t sizes[kHeldFrees];
  for (unsigned i = 0; i < n; ++i) sizes[i] = retireAllocation(h.blocks[i], /*forget_pages=*/true);
  for (unsigned i = 0; i < n; ++i) real().free(h.blocks[i]);
  for (unsigned i = 0; i < n; ++i)
    if (sizes[i]) afterFree(h.blocks[i], sizes[i]);
  h.count = 0;
  h.passing = false;
}

}  // namespace

NUMAPERF_HOT_PATH bool holdFree(void *p) {
  HeldFrees &h = tls_held;
  if (h.state != HoldState::kHolding || h.passing) return false;
  if (!nothingTouched()) {
    // Profiling has started (nothing is ever untouched again): blocks held
    // from before are retired the way they would be now (with their pages),
    // and this thread's later frees skip the check.
    if (h.count) passOn(h);
    h.state = HoldState::kStopped;
    return false;
  }
  const uintptr_t region = reinterpret_cast<uintptr_t>(p) >> kNearShift;
  const bool near = region == h.last_region;
  h.last_region = region;
  if (near) return false;
  if (!real().malloc_usable_size || real().malloc_usable_size(p) > kHeldMaxBytes) return false;
  h.blocks[h.count++] = p;
  if (h.count == kHeldFrees) passOn(h);
  return true;
}

void allowHeldFrees() {
  HeldFrees &h = tls_held;
  if (h.state == HoldState::kNever) h.state = HoldState::kHolding;
}

void endHeldFrees() {
  HeldFrees &h = tls_held;
  if (h.count && !h.passing) passOn(h);
  h.state = HoldState::kStopped;
}

}  // namespace numaperf

// The main thread ends with the process, when nothing needs to be freed.
// Another thread that loads the runtime later (dlopen) is not known to end
// where the runtime sees it, so it does not hold.
__attribute__((constructor(103))) static void numaperfAllowMainThreadHeldFrees() {
  if (syscall(SYS_gettid) == getpid()) numaperf::allowHeldFrees();
}
