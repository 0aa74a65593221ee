// Memory policies the program set through mbind, set_mempolicy and libnuma
// (interception/mempolicy_interceptors.cpp): which address ranges carry an
// interleave policy, and which threads have an interleave task policy (for
// the pages they touch first). Read at fold time by the bandwidth-signature
// classifier (placement_signature.h). Small and fixed-size: a program sets a
// handful of policies; past the capacity new ranges are dropped and counted.
#pragma once

#include <cstddef>
#include <cstdint>

namespace numaperf {

enum class MemPolicy : uint8_t { kUnset = 0, kInterleave = 1, kOther = 2 };

// mbind(start, len, mode): the range's policy replaces what was there.
void recordRangePolicy(uintptr_t start, size_t len, MemPolicy policy);
// munmap: the addresses carry no policy any more.
void forgetRangePolicy(uintptr_t start, size_t len);
// set_mempolicy by the thread with `owner_tag` (0: the process default, for a
// policy inherited at start or set before the thread registry knows the
// thread). The main thread's policy (tag 1) is also the process default:
// threads without their own inherit it (approximation: the kernel copies
// the creator's policy at thread creation, which is not tracked).
void recordTaskPolicy(uint32_t owner_tag, MemPolicy policy);

// The policy ranges overlapping one folded byte range, looked up once per
// fold so the per-page test is a short scan.
class PolicyView {
 public:
  PolicyView(uintptr_t start, uintptr_t end);
  // Whether the page at `page` (first touched by `owner_tag`) is interleaved:
  // a range policy wins; else the toucher's task policy.
  bool interleaved(uintptr_t page, uint32_t owner_tag) const;

 private:
  static constexpr unsigned kMaxRanges = 16;
  struct Range {
    uintptr_t start, end;
    MemPolicy policy;
  };
  Range ranges_[kMaxRanges];
  unsigned count_ = 0;
  bool any_task_policy_ = false;
};

// Ranges dropped because the registry was full (reported as a note).
uint64_t droppedPolicyRanges();
// fork: the registry's lock is held across it (core/fork_safety.cpp).
void policyRegistryLock();
void policyRegistryUnlock();
// Forget everything (unit tests).
void resetPolicyRegistry();

}  // namespace numaperf
