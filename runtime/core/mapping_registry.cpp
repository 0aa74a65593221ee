#include "core/mapping_registry.h"

#include "common/internal_alloc.h"
#include "core/object_fold.h"
#include "core/page_sampling.h"
#include "core/stack_store.h"

#include <algorithm>
#include <cstring>

namespace numaperf {

MappingRegistry &mappingRegistry() {
  static MappingRegistry *registry = internalNew<MappingRegistry>();
  return *registry;
}

namespace {

void foldInto(uintptr_t start, uint64_t size, bool forget_pages, StackRecord *site) {
  ObjectProfile instance;
  if (takeObjectProfile(start, start + size, forget_pages, &instance) && site)
    site->profile.add(instance);
}

}  // namespace

bool MappingRegistry::reserve(uint32_t needed) {
  return reserveInternalArray(items_, capacity_, count_, needed);
}

void MappingRegistry::add(uintptr_t start, uint64_t size, StackRecord *site) {
  SpinLockGuard guard(lock_);
  if (reserve(count_ + 1)) items_[count_++] = Mapping{start, size, site};
  if (sampledSize(size)) sampledRanges().add(start, size);
}

void MappingRegistry::remove(uintptr_t start, uint64_t size) {
  uintptr_t end = start + size;
  // What is left of a mapping partly unmapped is modelled in full.
  sampledRanges().remove(start, size);
  SpinLockGuard guard(lock_);
  for (uint32_t i = 0; i < count_;) {
    Mapping m = items_[i];
    uintptr_t m_end = m.start + m.size;
    uintptr_t lo = std::max(start, m.start), hi = std::min(end, m_end);
    if (lo >= hi) {
      ++i;
      continue;
    }
    foldInto(lo, hi - lo, /*forget_pages=*/true, m.site);
    bool keep_left = m.start < lo, keep_right = hi < m_end;
    if (keep_left && keep_right) {  // a hole in the middle: split
      items_[i].size = lo - m.start;
      if (reserve(count_ + 1)) items_[count_++] = Mapping{hi, m_end - hi, m.site};
      ++i;
    } else if (keep_left) {
      items_[i++].size = lo - m.start;
    } else if (keep_right) {
      items_[i].start = hi;
      items_[i++].size = m_end - hi;
    } else {
      items_[i] = items_[--count_];  // gone entirely
    }
  }
}

void MappingRegistry::foldAll() {
  SpinLockGuard guard(lock_);
  for (uint32_t i = 0; i < count_; ++i)
    foldInto(items_[i].start, items_[i].size, false, items_[i].site);
}

uint64_t MappingRegistry::count() {
  SpinLockGuard guard(lock_);
  return count_;
}

}  // namespace numaperf
