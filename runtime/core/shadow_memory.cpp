#include "core/shadow_memory.h"

#include "common/hot_path.h"
#include "common/internal_alloc.h"

namespace numaperf {

NUMAPERF_HOT_DATA std::atomic<bool> ShadowMemory::claimed_{false};

ShadowMemory &shadowMemory() {
  static ShadowMemory shadow;
  return shadow;
}

#ifndef NUMAPERF_SHADOW_CHUNKED
bool ShadowMemory::init() {
  if (table_) return true;
  table_ = static_cast<PageEntry *>(reserveAddressSpace(kPages * sizeof(PageEntry)));
  return table_ != nullptr;
}
#else
bool ShadowMemory::init() {
  if (chunks_) return true;
  chunks_ = static_cast<std::atomic<PageEntry *> *>(
      reserveAddressSpace((kPages >> kChunkShift) * sizeof(std::atomic<PageEntry *>)));
  return chunks_ != nullptr;
}

PageEntry *ShadowMemory::entryFor(uintptr_t addr) const {
  uintptr_t page = addr >> kPageShift;
  if (page >= kPages) return nullptr;
  std::atomic<PageEntry *> &slot = chunks_[page >> kChunkShift];
  PageEntry *chunk = slot.load(std::memory_order_acquire);
  if (!chunk) {
    const size_t bytes = (size_t(1) << kChunkShift) * sizeof(PageEntry);
    auto *fresh = static_cast<PageEntry *>(reserveAddressSpace(bytes));
    if (!fresh) return nullptr;
    if (slot.compare_exchange_strong(chunk, fresh, std::memory_order_acq_rel)) {
      chunk = fresh;
    } else {
      releaseAddressSpace(fresh, bytes);  // another thread reserved it first
    }
  }
  return chunk + (page & ((uintptr_t(1) << kChunkShift) - 1));
}
#endif

PageDetail *ShadowMemory::detailFor(PageEntry *e) {
  PageDetail *d = e->detail.load(std::memory_order_acquire);
  if (__builtin_expect(d != nullptr, 1)) return d;
  noteClaim();
  PageDetail *fresh = internalNewDetail<PageDetail>();  // budgeted
  if (!fresh) return nullptr;
  if (e->detail.compare_exchange_strong(d, fresh, std::memory_order_acq_rel))
    return fresh;
  internalDelete(fresh);  // another thread installed one first
  return d;
}

}  // namespace numaperf
