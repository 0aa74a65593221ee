#include "core/shadow_memory.h"

#include "common/internal_alloc.h"

namespace numaperf {

ShadowMemory &shadowMemory() {
  static ShadowMemory shadow;
  return shadow;
}

bool ShadowMemory::init() {
  if (table_) return true;
  table_ = static_cast<PageEntry *>(reserveAddressSpace(kPages * sizeof(PageEntry)));
  return table_ != nullptr;
}

PageDetail *ShadowMemory::detailFor(PageEntry *e) {
  PageDetail *d = e->detail.load(std::memory_order_acquire);
  if (__builtin_expect(d != nullptr, 1)) return d;
  PageDetail *fresh = internalNewDetail<PageDetail>();  // budgeted
  if (!fresh) return nullptr;
  if (e->detail.compare_exchange_strong(d, fresh, std::memory_order_acq_rel))
    return fresh;
  internalDelete(fresh);  // another thread installed one first
  return d;
}

}  // namespace numaperf
