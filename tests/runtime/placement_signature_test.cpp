// The bandwidth-signature classifier on synthetic page records
// (core/placement_signature.h): one case per rule.
#include "core/placement_signature.h"

#include <gtest/gtest.h>

namespace numaperf {
namespace {

// A page first touched by `toucher` (thread index) and then used.
PageUse page(uint32_t toucher, uint64_t private_reads, uint64_t private_writes) {
  PageUse p;
  p.owner_tag = toucher + 1;
  p.private_reads = private_reads;
  p.private_writes = private_writes;
  return p;
}

// Shared phase: `users` threads (tags first_user + 1 ...), the toucher
// making `own` of the accesses.
PageUse shared(PageUse p, uint32_t users, uint64_t reads, uint64_t writes, uint64_t own,
               uint32_t first_user = 0) {
  p.users = users;
  for (uint32_t u = 0; u < users; ++u) p.user_bits |= uint64_t(1) << ((first_user + u + 1) % 64);
  p.shared_reads = reads;
  p.shared_writes = writes;
  p.toucher_shared = own;
  p.others_shared = reads + writes - own;
  return p;
}

SignatureCounts classify(std::initializer_list<PageUse> pages) {
  SignatureClassifier c;
  for (const PageUse &p : pages) c.addPage(p);
  SignatureCounts out;
  c.finish(&out);
  return out;
}

TEST(PlacementSignature, PrivatePagesAreLocal) {
  SignatureCounts s = classify({page(0, 100, 50), page(1, 30, 0)});
  EXPECT_DOUBLE_EQ(s.reads[kLocalClass], 130);
  EXPECT_DOUBLE_EQ(s.writes[kLocalClass], 50);
  EXPECT_DOUBLE_EQ(s.total(), 180);
}

TEST(PlacementSignature, SharedPageUsedOnlyByItsToucherIsLocal) {
  SignatureCounts s = classify({shared(page(2, 0, 10), 1, 40, 0, 40)});
  EXPECT_DOUBLE_EQ(s.reads[kLocalClass], 40);
  EXPECT_DOUBLE_EQ(s.writes[kLocalClass], 10);
  EXPECT_EQ(s.toucher_count, 0u);
}

TEST(PlacementSignature, OneToucherManyUsersIsStaticWithTheToucher) {
  // Thread 0 initialised the table (private writes), four workers read it.
  SignatureCounts s = classify({shared(page(0, 0, 512), 4, 4000, 0, 0),
                                   shared(page(0, 0, 512), 4, 4000, 0, 0)});
  EXPECT_DOUBLE_EQ(s.writes[kLocalClass], 1024);
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 8000);
  ASSERT_EQ(s.toucher_count, 1u);
  EXPECT_EQ(s.touchers[0].thread, 0u);
  EXPECT_DOUBLE_EQ(s.touchers[0].reads, 8000);
}

TEST(PlacementSignature, TouchersOwnSharedAccessesOnAStaticPageAreLocal) {
  SignatureCounts s = classify({shared(page(0, 0, 0), 3, 300, 0, 100)});
  EXPECT_DOUBLE_EQ(s.reads[kLocalClass], 100);
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 200);
}

TEST(PlacementSignature, SpreadTouchersWidePagesArePerThread) {
  // Four threads each initialised a quarter, all four read all.
  SignatureCounts s = classify({shared(page(0, 0, 64), 4, 400, 0, 100),
                                   shared(page(1, 0, 64), 4, 400, 0, 100),
                                   shared(page(2, 0, 64), 4, 400, 0, 100),
                                   shared(page(3, 0, 64), 4, 400, 0, 100)});
  EXPECT_DOUBLE_EQ(s.reads[kPerThreadClass], 1600);
  EXPECT_DOUBLE_EQ(s.writes[kLocalClass], 256);  // initialised alone: local
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 0);
}

TEST(PlacementSignature, TouchersEarlyReadsFollowThePageClass) {
  // The toucher read its page before the others came: per-thread on a
  // per-thread page, local on a static one.
  SignatureCounts spread = classify({shared(page(0, 30, 64), 2, 100, 0, 50),
                                        shared(page(1, 30, 64), 2, 100, 0, 50)});
  EXPECT_DOUBLE_EQ(spread.reads[kPerThreadClass], 260);
  EXPECT_DOUBLE_EQ(spread.reads[kLocalClass], 0);
  EXPECT_DOUBLE_EQ(spread.writes[kLocalClass], 128);
  SignatureCounts one = classify({shared(page(0, 30, 64), 2, 100, 0, 0)});
  EXPECT_DOUBLE_EQ(one.reads[kLocalClass], 30);
  EXPECT_DOUBLE_EQ(one.reads[kStaticClass], 100);
}

TEST(PlacementSignature, OneDominantToucherOfWidePagesIsStatic) {
  SignatureCounts s = classify({shared(page(0, 0, 0), 4, 950, 0, 0),
                                   shared(page(1, 0, 0), 4, 50, 0, 0)});
  EXPECT_DOUBLE_EQ(s.reads[kPerThreadClass], 0);
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 1000);
  EXPECT_EQ(s.toucher_count, 2u);
}

TEST(PlacementSignature, NarrowPagesOfSeveralTouchersAreStatic) {
  // Neighbour exchange: thread t's page is used by t and t + 1 (five threads
  // in all, so a wide page needs three).
  SignatureCounts s = classify({shared(page(0, 0, 0), 2, 100, 0, 50, 0),
                                shared(page(1, 0, 0), 2, 100, 0, 50, 1),
                                shared(page(2, 0, 0), 2, 100, 0, 50, 2),
                                shared(page(3, 0, 0), 2, 100, 0, 50, 3)});
  EXPECT_DOUBLE_EQ(s.reads[kPerThreadClass], 0);
  EXPECT_DOUBLE_EQ(s.reads[kLocalClass], 200);
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 200);
  EXPECT_EQ(s.toucher_count, 4u);
}

TEST(PlacementSignature, WideDependsOnTheObjectsUsersNotOnThreadsEverStarted) {
  // Two threads of many: each initialised half, both read all.
  SignatureCounts s = classify({shared(page(40, 0, 8), 2, 100, 0, 50, 40),
                                shared(page(41, 0, 8), 2, 100, 0, 50, 40)});
  EXPECT_DOUBLE_EQ(s.reads[kPerThreadClass], 200);
  EXPECT_DOUBLE_EQ(s.writes[kLocalClass], 16);
}

TEST(PlacementSignature, InterleavedPagesTakeAllTheirAccesses) {
  PageUse p = shared(page(0, 10, 5), 3, 90, 10, 0);
  p.interleaved = true;
  SignatureCounts s = classify({p});
  EXPECT_DOUBLE_EQ(s.reads[kInterleavedClass], 100);
  EXPECT_DOUBLE_EQ(s.writes[kInterleavedClass], 15);
  EXPECT_DOUBLE_EQ(s.total(), 115);
}

TEST(PlacementSignature, WritesFollowThePageClassApartFromReads) {
  SignatureCounts s = classify({shared(page(0, 0, 0), 2, 60, 40, 0)});
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 60);
  EXPECT_DOUBLE_EQ(s.writes[kStaticClass], 40);
}

TEST(PlacementSignature, EarlyRemoteAccessesAreStaticReads) {
  SignatureClassifier c;
  c.addEarlyRemote(3, 7);
  SignatureCounts s;
  c.finish(&s);
  EXPECT_DOUBLE_EQ(s.reads[kStaticClass], 7);
  EXPECT_EQ(s.touchers[0].thread, 2u);
}

TEST(PlacementSignature, MergeKeepsStaticTouchersAndCapsTheTable) {
  SignatureCounts a;
  for (uint32_t t = 0; t < kMaxStaticTouchers + 3; ++t) a.addStatic(t, 1, 0);
  EXPECT_EQ(a.toucher_count, kMaxStaticTouchers);
  EXPECT_EQ(a.touchers[kMaxStaticTouchers - 1].thread, kOtherToucher);
  EXPECT_DOUBLE_EQ(a.touchers[kMaxStaticTouchers - 1].reads, 4);
  SignatureCounts b;
  b.reads[kLocalClass] = 2;
  b.addStatic(0, 5, 1);
  b.merge(a);
  EXPECT_DOUBLE_EQ(b.reads[kStaticClass], 5 + kMaxStaticTouchers + 3);
  EXPECT_DOUBLE_EQ(b.touchers[0].reads, 6);
  EXPECT_DOUBLE_EQ(b.total(), 2 + 5 + 1 + kMaxStaticTouchers + 3);  // local, static r+w, a
}

}  // namespace
}  // namespace numaperf

namespace numaperf {
namespace {

TEST(PlacementSignature, ManyTouchersPastTheGroupTableStayPerThread) {
  SignatureClassifier c;
  for (uint32_t t = 0; t < 100; ++t) c.addPage(shared(page(t, 0, 8), 100, 1000, 0, 10));
  SignatureCounts s;
  c.finish(&s);
  EXPECT_DOUBLE_EQ(s.reads[kPerThreadClass], 100 * 1000);
  EXPECT_DOUBLE_EQ(s.writes[kLocalClass], 800);
  EXPECT_DOUBLE_EQ(s.total(), 100 * 1008);
}

}  // namespace
}  // namespace numaperf
