#include "core/mapping_registry.h"
#include "core/object_fold.h"
#include "core/shadow_memory.h"
#include "core/stack_store.h"

#include <gtest/gtest.h>

#include <vector>

using namespace numaperf;

namespace {

void countRemote(uintptr_t addr, uint64_t times) {
  PageEntry *e = shadowMemory().entryFor(addr);
  shadowMemory().detailFor(e)->line_remote[(addr >> kLineShift) % kLinesPerPage].fetch_add(times);
}

}  // namespace

TEST(MappingRegistry, PartialUnmapsFoldTheirPartAndKeepTheRest) {
  ASSERT_TRUE(shadowMemory().init());
  std::vector<char> storage(12 * kPageSize);
  uintptr_t base = (reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1);
  uintptr_t frames[1] = {0x5150};
  StackRecord *site = stackStore().intern(frames, 1);
  MappingRegistry registry;
  registry.add(base, 10 * kPageSize, site);
  countRemote(base + 4 * kPageSize, 5);  // in the hole punched below
  countRemote(base + 8 * kPageSize, 7);  // stays mapped until the end
  registry.remove(base + 3 * kPageSize, 3 * kPageSize);  // a hole: split in two
  EXPECT_EQ(registry.count(), 2u);
  ASSERT_NE(site->profile.get(), nullptr);
  EXPECT_EQ(site->profile.get()->remote, 5u);
  registry.foldAll();
  EXPECT_EQ(site->profile.get()->remote, 12u);
  registry.remove(base, 10 * kPageSize);  // both halves go
  EXPECT_EQ(registry.count(), 0u);
}
