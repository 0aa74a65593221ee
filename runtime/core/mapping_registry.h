// Anonymous memory mappings the program makes with mmap, tracked as objects
// like heap blocks (allocation stack = the mmap call). Unlike heap blocks
// they can be unmapped in part, resized and moved (mremap), so they are kept
// in a list searched by containment; programs make few of them.
#pragma once

#include "common/spin_lock.h"

#include <cstdint>

namespace numaperf {

struct StackRecord;

class MappingRegistry {
 public:
  void add(uintptr_t start, uint64_t size, StackRecord *site);
  // Folds [start, start + size) into the mappings it overlaps and removes it
  // from them (splitting a mapping when a hole is punched in its middle).
  void remove(uintptr_t start, uint64_t size);
  // Folds every live mapping (at exit).
  void foldAll();
  uint64_t count();
  // Around fork.
  void lockAll() { lock_.lock(); }
  void unlockAll() { lock_.unlock(); }

 private:
  struct Mapping {
    uintptr_t start;
    uint64_t size;
    StackRecord *site;
  };
  bool reserve(uint32_t needed);

  SpinLock lock_;
  Mapping *items_ = nullptr;
  uint32_t count_ = 0;
  uint32_t capacity_ = 0;
};

MappingRegistry &mappingRegistry();

}  // namespace numaperf
