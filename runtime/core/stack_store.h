// De-duplicating store of allocation stacks. Each distinct stack is kept once,
// with the totals of every object allocated through it (one StackRecord is
// one allocation site in the report). Insertion and lookup are lock-free;
// records are never removed.
#pragma once

#include "core/object_profile.h"

#include <atomic>
#include <cstdint>

namespace numaperf {

struct StackRecord {
  StackRecord *next_in_bucket = nullptr;
  StackRecord *next_in_store = nullptr;  // every record, for the report
  uint64_t hash = 0;
  uint32_t depth = 0;
  uint32_t id = 0;
  std::atomic<uint64_t> instances{0};       // objects allocated here
  std::atomic<uint64_t> max_size{0};        // largest of them, bytes
  ProfileAccumulator profile;               // folded in at free and exit
  uintptr_t frames[1];                      // `depth` entries, innermost first

  // Counts `n` objects allocated here, the largest of `size` bytes.
  void noteAllocations(uint64_t n, uint64_t size);
  // Whether this is the record of exactly that stack.
  bool matches(const uintptr_t *stack, uint32_t stack_depth) const {
    if (depth != stack_depth) return false;
    for (uint32_t i = 0; i < stack_depth; ++i)
      if (frames[i] != stack[i]) return false;
    return true;
  }
};

class StackStore {
 public:
  // Returns the record for this stack, inserting it if new; nullptr only if
  // memory for a new record cannot be had.
  StackRecord *intern(const uintptr_t *frames, uint32_t depth);
  StackRecord *first() const { return all_.load(std::memory_order_acquire); }
  uint32_t size() const { return count_.load(std::memory_order_relaxed); }

 private:
  static constexpr uint32_t kBuckets = 1u << 16;
  std::atomic<StackRecord *> buckets_[kBuckets] = {};
  std::atomic<StackRecord *> all_{nullptr};
  std::atomic<uint32_t> count_{0};
};

StackStore &stackStore();

}  // namespace numaperf
