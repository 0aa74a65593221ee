#include "core/page_sampling.h"

#include "core/object_fold.h"
#include "core/shadow_memory.h"
#include "core/sharing_tracker.h"

#include <gtest/gtest.h>

#include <vector>

using namespace numaperf;

TEST(SampledRanges, FindsAddressesInsideLiveRangesOnly) {
  SampledRanges r;
  r.add(0x10000, 0x1000);
  r.add(0x30000, 0x2000);
  r.add(0x20000, 0x800);  // out of order
  EXPECT_EQ(r.count(), 3u);
  EXPECT_FALSE(r.contains(0xffff));
  EXPECT_TRUE(r.contains(0x10000));
  EXPECT_TRUE(r.contains(0x10fff));
  EXPECT_FALSE(r.contains(0x11000));
  EXPECT_TRUE(r.contains(0x207ff));
  EXPECT_FALSE(r.contains(0x20800));
  EXPECT_TRUE(r.contains(0x31fff));
  // The same start again (a free we missed) replaces the range.
  r.add(0x20000, 0x1000);
  EXPECT_EQ(r.count(), 3u);
  EXPECT_TRUE(r.contains(0x20800));
  // Removing part of a range removes the whole range; neighbours stay.
  r.remove(0x31000, 0x10);
  EXPECT_FALSE(r.contains(0x30000));
  EXPECT_TRUE(r.contains(0x20000));
  r.remove(0x0, 0x100000);
  EXPECT_EQ(r.count(), 0u);
  EXPECT_FALSE(r.contains(0x10000));
}

TEST(SampledRanges, GrowsPastItsFirstCapacity) {
  SampledRanges r;
  for (uintptr_t i = 1000; i > 0; --i) r.add(i << 20, 4096);
  EXPECT_EQ(r.count(), 1000u);
  for (uintptr_t i = 1; i <= 1000; ++i) {
    EXPECT_TRUE(r.contains((i << 20) + 100)) << i;
    EXPECT_FALSE(r.contains((i << 20) + 4096)) << i;
  }
}

namespace {

struct PageSamplingTest : ::testing::Test {
  void SetUp() override {
    ASSERT_TRUE(shadowMemory().init());
    setPageSampling({8, 64 * 1024});
  }
  void TearDown() override {
    setPageSampling(PageSamplingConfig());
    ObjectProfile drop;
    takeObjectProfile(base(), base() + 4 * kPageSize, true, &drop);
  }
  std::vector<char> storage = std::vector<char>(5 * kPageSize);
  uintptr_t base() const {
    return (reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1);
  }
  // Threads 2 and 3 fight over one line of the page (false sharing: words 0
  // and 8, each written then read twice), and thread 2 reads another line;
  // thread 1 first touched it.
  // Returns the accesses made (all by threads other than the toucher).
  static uint64_t playTrace(uintptr_t page) {
    PageEntry *e = shadowMemory().entryFor(page);
    e->owner.store(1);
    shadowMemory().noteClaim();
    PageDetail *d = shadowMemory().detailFor(e);
    uint64_t n = 0;
    for (int i = 0; i < 20; ++i, n += 6) {  // each re-reads its word: hits
      trackSharedAccess(2, d, page, 4, true, true, 0x100);
      trackSharedAccess(2, d, page, 4, false, true, 0x100);
      trackSharedAccess(2, d, page, 4, false, true, 0x100);
      trackSharedAccess(3, d, page + 32, 4, true, true, 0x200);
      trackSharedAccess(3, d, page + 32, 4, false, true, 0x200);
      trackSharedAccess(3, d, page + 32, 4, false, true, 0x200);
    }
    for (int i = 0; i < 10; ++i, ++n) trackSharedAccess(2, d, page + 5 * kLineSize, 8, false, true, 0x300);
    return n;
  }
};

}  // namespace

TEST_F(PageSamplingTest, OnlyPagesOfLargeObjectsAreSampledAway) {
  const uintptr_t big = uintptr_t(0x5a0000000000), size = 4 << 20;
  sampledRanges().add(big, size);
  unsigned away = 0;
  for (uintptr_t p = big; p < big + size; p += kPageSize) away += samplePageAway(p);
  const unsigned pages = unsigned(size / kPageSize);
  // One page in eight kept, by hash: around 7/8 of 1024 sampled away.
  EXPECT_GT(away, pages * 3 / 4);
  EXPECT_LT(away, pages * 15 / 16);
  EXPECT_FALSE(samplePageAway(big + size));
  EXPECT_FALSE(samplePageAway(big - kPageSize));
  setPageSampling({1, 64 * 1024});  // sampling off
  for (uintptr_t p = big; p < big + size; p += kPageSize) EXPECT_FALSE(samplePageAway(p));
  sampledRanges().remove(big, size);
  EXPECT_TRUE(sampledSize(64 * 1024) == false);  // rate 1: nothing is sampled
  setPageSampling({8, 64 * 1024});
  EXPECT_TRUE(sampledSize(64 * 1024));
  EXPECT_FALSE(sampledSize(64 * 1024 - 1));
}

// A page sampled away that behaved like its sampled neighbour is estimated
// to have done what the neighbour did: folding one sampled page and one
// sampled-away page gives the counts of two modelled pages.
TEST_F(PageSamplingTest, ASampledAwayTwinGetsItsSampledPagesCounts) {
  const uintptr_t b = base();
  const uint64_t n = playTrace(b);
  playTrace(b + kPageSize);
  ObjectProfile exact;
  ASSERT_TRUE(takeObjectProfile(b, b + 2 * kPageSize, true, &exact));
  ASSERT_GT(exact.invalidations_false, 0u);
  ASSERT_GT(exact.remote, 0u);
  ASSERT_LT(exact.remote, 2 * n);  // hits on the fought-over line are not remote

  // Fresh pages (a page keeps its line records, word detail included, for
  // the next object: that would change how the first writes are told apart).
  const uintptr_t b2 = b + 2 * kPageSize;
  playTrace(b2);
  PageEntry *away = shadowMemory().entryFor(b2 + kPageSize);
  away->owner.store(1);
  markSampledAway(away);
  countSampledAway(away, away->early_remote.load(), n);
  ObjectProfile estimated;
  ASSERT_TRUE(takeObjectProfile(b2, b2 + 2 * kPageSize, true, &estimated));
  // Folding only tallies; the estimate is made on the site's merged profile.
  EXPECT_EQ(estimated.sampled_away_counted, n);
  EXPECT_LT(estimated.remote, exact.remote);
  applySampleEstimate(&exact);  // nothing sampled: no change
  applySampleEstimate(&estimated);
  EXPECT_EQ(estimated.pages_sampled_away, 1u);
  EXPECT_EQ(exact.pages_sampled_away, 0u);
  EXPECT_EQ(estimated.remote, exact.remote);
  // What the threads counted as remote there, and what stands for it.
  EXPECT_EQ(estimated.sampled_away_counted, n);
  EXPECT_EQ(estimated.sampled_away_estimated, exact.remote / 2);
  EXPECT_EQ(estimated.invalidations, exact.invalidations);
  EXPECT_EQ(estimated.invalidations_false, exact.invalidations_false);
  EXPECT_EQ(estimated.invalidations_true, exact.invalidations_true);
  EXPECT_EQ(estimated.shared_reads, exact.shared_reads);
  EXPECT_EQ(estimated.shared_writes, exact.shared_writes);
  EXPECT_EQ(estimated.shared_pages, exact.shared_pages);
  EXPECT_EQ(estimated.remote_in_sharing_pages, exact.remote_in_sharing_pages);
  for (unsigned c = 0; c < kSignatureClasses; ++c) {
    EXPECT_DOUBLE_EQ(estimated.signature.reads[c], exact.signature.reads[c]) << c;
    EXPECT_DOUBLE_EQ(estimated.signature.writes[c], exact.signature.writes[c]) << c;
  }
  // The page is forgotten with its object: the next one decides afresh.
  EXPECT_EQ(away->early_remote.load(), 0u);
}

// Without a sampled page that other threads used there is nothing to scale
// by: every access counted on a page sampled away is a remote access.
TEST_F(PageSamplingTest, WithoutASharedSampledPageEveryCountedAccessIsRemote) {
  const uintptr_t b = base();
  shadowMemory().entryFor(b)->owner.store(1);
  shadowMemory().noteClaim();
  PageEntry *away = shadowMemory().entryFor(b + kPageSize);
  away->owner.store(1);
  markSampledAway(away);
  countSampledAway(away, away->early_remote.load(), 30);
  ObjectProfile p;
  ASSERT_TRUE(takeObjectProfile(b, b + 2 * kPageSize, false, &p));
  applySampleEstimate(&p);
  EXPECT_EQ(p.remote, 30u);
  EXPECT_EQ(p.sampled_away_counted, 30u);
  EXPECT_EQ(p.sampled_away_estimated, 30u);
  EXPECT_EQ(p.shared_pages, 1u);
  EXPECT_EQ(p.pages_sampled_away, 1u);
  EXPECT_DOUBLE_EQ(p.signature.reads[kStaticClass], 30.0);
  // Not forgotten (forget_pages false): still sampled away, its count taken.
  EXPECT_TRUE(sampledAway(away->early_remote.load()));
  EXPECT_EQ(away->early_remote.load() & kEarlyCountMask, 0u);
}

// The count saturates instead of running into the flag bit.
TEST_F(PageSamplingTest, TheCountOfAPageSampledAwaySaturates) {
  PageEntry *e = shadowMemory().entryFor(base() + 2 * kPageSize);
  markSampledAway(e);
  countSampledAway(e, e->early_remote.load(), kSampledCountCap - 10);
  countSampledAway(e, e->early_remote.load(), 100);
  EXPECT_TRUE(sampledAway(e->early_remote.load()));
  EXPECT_EQ(e->early_remote.load() & kEarlyCountMask, kSampledCountCap - 10);
  e->early_remote.store(0);
}

// Two instances of one site, one with only sampled pages and one with only
// pages sampled away, pool at the site: the second is estimated from the
// first (a hash table's nodes: no single node has pages of both kinds).
TEST_F(PageSamplingTest, InstancesOfASiteArePooledForTheEstimate) {
  const uintptr_t b = base();
  const uint64_t n = playTrace(b);
  ObjectProfile modelled;
  ASSERT_TRUE(takeObjectProfile(b, b + kPageSize, true, &modelled));
  PageEntry *away = shadowMemory().entryFor(b + kPageSize);
  away->owner.store(1);
  markSampledAway(away);
  countSampledAway(away, away->early_remote.load(), n);
  ObjectProfile counted;
  ASSERT_TRUE(takeObjectProfile(b + kPageSize, b + 2 * kPageSize, true, &counted));
  ObjectProfile site;
  site.merge(modelled);
  site.merge(counted);
  applySampleEstimate(&site);
  EXPECT_EQ(site.remote, 2 * modelled.remote);
  EXPECT_EQ(site.invalidations, 2 * modelled.invalidations);
  EXPECT_EQ(site.shared_pages, 2u);
  EXPECT_EQ(site.pages_sampled_away, 1u);
}

// On a page of small blocks sampled away, the page's count goes whole to
// the block holding the page's middle byte (as the page's thread counts
// do), so that a site's blocks together take all of it.
TEST_F(PageSamplingTest, APageOfSmallBlocksGivesItsCountToTheMiddleOne) {
  const uintptr_t page = base();
  PageEntry *e = shadowMemory().entryFor(page);
  e->owner.store(1);
  shadowMemory().noteClaim();
  markSampledAway(e);
  countSampledAway(e, e->early_remote.load(), 100);
  ObjectProfile site;
  for (uintptr_t b = page; b < page + kPageSize; b += 1024) {
    ObjectProfile block;
    bool counted = takeObjectProfile(b, b + 1000, true, &block);
    EXPECT_EQ(counted, b == page + 2048) << (b - page);
    EXPECT_EQ(block.sampled_away_counted, b == page + 2048 ? 100u : 0u) << (b - page);
    site.merge(block);
  }
  applySampleEstimate(&site);
  EXPECT_EQ(site.remote, 100u);
  EXPECT_EQ(site.pages_sampled_away, 1u);
  EXPECT_TRUE(sampledAway(e->early_remote.load()));  // small blocks leave the page sampled away
  e->early_remote.store(0);
}

// A thread's tally adds to pages in batches, yet after the flush the pages
// hold exactly the accesses counted.
TEST(SampledAwayTally, BatchesAddsAndKeepsTheTotal) {
  PageEntry pages[16] = {};
  for (PageEntry &e : pages) e.early_remote.store(kSampledAwayBit);
  SampledAwayTally t;
  t.seed(42);
  uint64_t total = 0, adds = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    PageEntry &e = pages[(i * 7) % 16];
    const uint64_t n = 1 + i % 5;
    total += n;
    adds += tallySampledAway(t, &e, e.early_remote.load(), n) != 0;
  }
  flushSampledAway(t);
  uint64_t counted = 0;
  for (PageEntry &e : pages) counted += e.early_remote.load() & kEarlyCountMask;
  EXPECT_EQ(counted, total);
  // About total / kBatch adds, far fewer than the 20000 accesses.
  EXPECT_GT(adds, total / SampledAwayTally::kBatch / 2);
  EXPECT_LT(adds, total / SampledAwayTally::kBatch * 2);
}

// Two pages visited in turn, three accesses to one for each to the other:
// the adds land on each in proportion to its accesses (a fixed threshold
// would give them all to the same one).
TEST(SampledAwayTally, EachPageGetsItsShareOfTheAdds) {
  PageEntry light = {}, heavy = {};
  light.early_remote.store(kSampledAwayBit);
  heavy.early_remote.store(kSampledAwayBit);
  SampledAwayTally t;
  t.seed(7);
  for (int i = 0; i < 400000; ++i) {
    tallySampledAway(t, &light, light.early_remote.load(), 1);
    tallySampledAway(t, &heavy, heavy.early_remote.load(), 3);
  }
  flushSampledAway(t);
  const double l = double(light.early_remote.load() & kEarlyCountMask);
  const double h = double(heavy.early_remote.load() & kEarlyCountMask);
  EXPECT_EQ(l + h, 1600000.0);
  EXPECT_NEAR(h / (l + h), 0.75, 0.03);
}

// The pending count goes to the page counted last only while that page is
// still sampled away: freed and emptied, it is not given counts of an
// object that is gone.
TEST(SampledAwayTally, FlushSkipsAPageNoLongerSampledAway) {
  PageEntry e = {};
  e.early_remote.store(kSampledAwayBit);
  SampledAwayTally t;
  t.seed(3);
  while (tallySampledAway(t, &e, e.early_remote.load(), 1) == 0) {
  }
  const uint32_t before = e.early_remote.load();
  tallySampledAway(t, &e, e.early_remote.load(), 1);
  ASSERT_GT(t.pending, 0u);
  e.early_remote.store(0);  // the object was folded and its pages emptied
  flushSampledAway(t);
  EXPECT_EQ(e.early_remote.load(), 0u);
  EXPECT_EQ(t.pending, 0u);
  EXPECT_GT(before & kEarlyCountMask, 0u);
}
