#include "core/shadow_memory.h"

#include "common/internal_alloc.h"

#include <algorithm>

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
  PageDetail *fresh = internalNew<PageDetail>();
  if (!fresh) return nullptr;
  if (e->detail.compare_exchange_strong(d, fresh, std::memory_order_acq_rel))
    return fresh;
  internalDelete(fresh);  // another thread installed one first
  return d;
}

uint64_t ShadowMemory::takeRemote(uintptr_t start, uintptr_t end, bool forget_pages) {
  if (!table_ || end <= start) return 0;
  uint64_t taken = 0;
  for (uintptr_t page = start & ~(kPageSize - 1); page < end; page += kPageSize) {
    PageEntry *e = entryFor(page);
    if (!e) break;
    bool whole_page = start <= page && page + kPageSize <= end;
    if (PageDetail *d = e->detail.load(std::memory_order_acquire)) {
      uintptr_t lo = std::max(start, page), hi = std::min(end, page + kPageSize);
      for (uintptr_t line = lo & ~(kLineSize - 1); line < hi; line += kLineSize) {
        std::atomic<uint64_t> &c = d->line_remote[(line >> kLineShift) % kLinesPerPage];
        uintptr_t overlap = std::min(hi, line + kLineSize) - std::max(lo, line);
        if (overlap == kLineSize) {
          taken += c.exchange(0, std::memory_order_relaxed);
        } else {
          uint64_t v = c.load(std::memory_order_relaxed);
          uint64_t share = v * overlap / kLineSize;
          // Neighbours' shares stay; a concurrent increment is not lost.
          while (share && !c.compare_exchange_weak(v, v - std::min(share, v)))
            share = v * overlap / kLineSize;
          taken += share;
        }
      }
    }
    if (forget_pages && whole_page) e->owner.store(0, std::memory_order_relaxed);
  }
  return taken;
}

}  // namespace numaperf
