// The runtime's own allocator: memory for thread records, page detail, stack
// records and object tables comes from here, never from the program's heap,
// so profiling does not change what the program's malloc sees and the
// runtime can allocate from inside its malloc interceptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace numaperf {

// Zero-filled memory; nullptr when the system refuses (the caller degrades).
void *internalAlloc(size_t size);
void internalFree(void *p, size_t size);
// Bytes currently mapped by the internal allocator (for the report).
uint64_t internalBytesMapped();

template <typename T, typename... Args>
T *internalNew(Args &&...args) {
  void *p = internalAlloc(sizeof(T));
  return p ? new (p) T(std::forward<Args>(args)...) : nullptr;
}

// Optional detail (common/memory_budget.h): nullptr once the runtime's memory
// reached NUMAPERF_MEMORY_LIMIT, so the caller drops the detail.
void *internalAllocDetail(size_t size);
template <typename T>
T *internalNewDetail() {
  void *p = internalAllocDetail(sizeof(T));
  return p ? new (p) T() : nullptr;
}

template <typename T>
void internalDelete(T *p) {
  if (!p) return;
  p->~T();
  internalFree(p, sizeof(T));
}

// Grows the internal array `items` (`count` used of `capacity`) to hold at
// least `needed` elements of trivially copyable T, doubling from 64. False,
// with the array unchanged, when memory cannot be had.
template <typename T>
bool reserveInternalArray(T *&items, uint32_t &capacity, uint32_t count, uint32_t needed) {
  if (needed <= capacity) return true;
  uint32_t grown = capacity ? capacity * 2 : 64;
  while (grown < needed) grown *= 2;
  auto *fresh = static_cast<T *>(internalAlloc(grown * sizeof(T)));
  if (!fresh) return false;
  if (items) {
    __builtin_memcpy(fresh, items, count * sizeof(T));
    internalFree(items, capacity * sizeof(T));
  }
  items = fresh;
  capacity = grown;
  return true;
}

// Hold / release every lock of the allocator (around fork, so the child
// never inherits a lock another thread held).
void internalAllocLockAll();
void internalAllocUnlockAll();

// Reserve address space without committing it (shadow memory). Returns
// nullptr on failure.
void *reserveAddressSpace(size_t size);
void releaseAddressSpace(void *p, size_t size);

}  // namespace numaperf
