// Shadow memory: one PageEntry per 4 KiB page of the user address space, in a
// flat table reserved with MAP_NORESERVE and committed by the kernel only
// where the program touches memory. An entry holds the page's first toucher
// (the predicted home node of the page under first-touch placement) and, once
// another thread reaches the page, a PageDetail with per-cache-line counts of
// remote accesses. Counts are folded into objects when they are freed and at
// exit (see object_registry.h), at cache-line granularity.
//
// The hot path reads the entry without writing it when the accessing thread
// is the first toucher, so private data costs no shared-memory traffic.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace numaperf {

constexpr unsigned kPageShift = 12;
constexpr uintptr_t kPageSize = uintptr_t(1) << kPageShift;
constexpr unsigned kLineShift = 6;
constexpr uintptr_t kLineSize = uintptr_t(1) << kLineShift;
constexpr unsigned kLinesPerPage = kPageSize / kLineSize;
#if defined(__aarch64__)
constexpr unsigned kAddressBits = 48;
#else
constexpr unsigned kAddressBits = 47;
#endif

struct PageDetail {
  std::atomic<uint64_t> line_remote[kLinesPerPage];
};

struct PageEntry {
  std::atomic<uint32_t> owner;  // first toucher's ThreadState::owner_tag; 0 = none
  uint32_t reserved;
  std::atomic<PageDetail *> detail;
};
static_assert(sizeof(PageEntry) == 16, "page entries are indexed by shift");

class ShadowMemory {
 public:
  // Reserves the table; false when the address space cannot be reserved.
  bool init();
  bool ready() const { return table_ != nullptr; }

  PageEntry *entryFor(uintptr_t addr) const {
    uintptr_t page = addr >> kPageShift;
    if (__builtin_expect(page >= kPages, 0)) return nullptr;
    return table_ + page;
  }
  // The page's detail record, created on first use; nullptr if memory for
  // it cannot be had.
  PageDetail *detailFor(PageEntry *e);

  // Takes (removes and returns) the remote-access counts of the byte range
  // [start, end): whole lines entirely, lines shared with neighbours in
  // proportion to the bytes in range. Pages lying wholly inside the range
  // also forget their first toucher, so later reuse of the addresses starts
  // fresh.
  uint64_t takeRemote(uintptr_t start, uintptr_t end, bool forget_pages);

  static constexpr uintptr_t kPages = uintptr_t(1) << (kAddressBits - kPageShift);

 private:
  PageEntry *table_ = nullptr;
};

ShadowMemory &shadowMemory();

}  // namespace numaperf
