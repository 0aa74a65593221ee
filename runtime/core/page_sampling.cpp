#include "core/page_sampling.h"

#include "common/internal_alloc.h"
#include "core/object_registry.h"

#include <cstring>

namespace numaperf {
namespace {

PageSamplingConfig g_sampling;
std::atomic<uint64_t> g_pages_sampled_away{0};

// Spreads page numbers so that strided layouts (a row of K pages per
// thread) do not line up with the sample.
inline uint64_t pageHash(uintptr_t addr) {
  return (uint64_t(addr >> kPageShift) * 0x9E3779B97F4A7C15ull) >> 32;
}

}  // namespace

uint32_t SampledRanges::upperBound(uintptr_t addr) const {
  uint32_t lo = 0, hi = count_;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (items_[mid].start <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

bool SampledRanges::reserve(uint32_t needed) {
  return reserveInternalArray(items_, capacity_, count_, needed);
}

void SampledRanges::add(uintptr_t start, uint64_t size) {
  if (size == 0 || start + size < start) return;
  SpinLockGuard guard(lock_);
  uint32_t i = upperBound(start);
  // A range we missed the removal of (or a block realloc grew in place).
  if (i > 0 && items_[i - 1].start == start) {
    items_[i - 1].end = start + size;
    return;
  }
  if (!reserve(count_ + 1)) return;  // without memory the object stays exact
  memmove(items_ + i + 1, items_ + i, (count_ - i) * sizeof(Range));
  items_[i] = Range{start, start + size};
  ++count_;
}

void SampledRanges::remove(uintptr_t start, uint64_t size) {
  const uintptr_t end = start + size < start ? ~uintptr_t(0) : start + size;
  SpinLockGuard guard(lock_);
  uint32_t i = upperBound(start);
  if (i > 0 && items_[i - 1].end > start) --i;
  uint32_t j = i;
  while (j < count_ && items_[j].start < end) ++j;
  if (j == i) return;
  memmove(items_ + i, items_ + j, (count_ - j) * sizeof(Range));
  count_ -= j - i;
}

bool SampledRanges::contains(uintptr_t addr) {
  SpinLockGuard guard(lock_);
  uint32_t i = upperBound(addr);
  return i > 0 && addr < items_[i - 1].end;
}

uint64_t SampledRanges::count() {
  SpinLockGuard guard(lock_);
  return count_;
}

void setPageSampling(const PageSamplingConfig &config) { g_sampling = config; }

const PageSamplingConfig &pageSampling() { return g_sampling; }

bool sampledSize(uint64_t size) { return g_sampling.rate > 1 && size >= g_sampling.min_bytes; }

SampledRanges &sampledRanges() {
  static SampledRanges *ranges = internalNew<SampledRanges>();
  return *ranges;
}

bool samplePageAway(uintptr_t addr) {
  const uint32_t rate = g_sampling.rate;
  if (rate <= 1 || pageHash(addr) % rate == 0) return false;
  if (sampledRanges().contains(addr)) return true;
  return g_sampling.site_objects &&
         objectRegistry().packedWithPopulousSites(addr & ~(kPageSize - 1), g_sampling.site_objects);
}

void markSampledAway(PageEntry *e) {
  if (!sampledAway(e->early_remote.fetch_or(kSampledAwayBit, std::memory_order_relaxed)))
    g_pages_sampled_away.fetch_add(1, std::memory_order_relaxed);
}

uint64_t pagesSampledAway() { return g_pages_sampled_away.load(std::memory_order_relaxed); }

}  // namespace numaperf
