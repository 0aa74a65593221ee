#include "core/object_fold.h"
#include "core/shadow_memory.h"
#include "core/shared_page_cache.h"
#include "core/sharing_tracker.h"

#include <gtest/gtest.h>

#include <vector>

using namespace numaperf;

namespace {

struct SharingTest : ::testing::Test {
  void SetUp() override {
    ASSERT_TRUE(shadowMemory().init());
    setWordDetailThreshold(1);
    base = (reinterpret_cast<uintptr_t>(storage.data()) + kPageSize - 1) & ~(kPageSize - 1);
    detail = shadowMemory().detailFor(shadowMemory().entryFor(base));
    ASSERT_NE(detail, nullptr);
  }
  void TearDown() override {
    setWordDetailThreshold(2);
    ObjectProfile drop;  // leave the shadow clean for the next test
    takeObjectProfile(base, base + 4 * kPageSize, true, &drop);
  }
  ObjectProfile fold(uintptr_t from, uintptr_t to) {
    ObjectProfile p;
    takeObjectProfile(from, to, true, &p);
    return p;
  }
  // Two pages counted two ways (the range page at `base`, the reference at
  // `other`) have the same per-line remote counts; both are folded (into
  // got and want) and have the same remote accesses, reads and writes.
  void expectSamePageCounts(PageDetail *dr, PageDetail *de, uintptr_t other, ObjectProfile *got,
                            ObjectProfile *want) {
    for (unsigned l = 0; l < kLinesPerPage; ++l)
      EXPECT_EQ(dr->lineRemote(l), de->lineRemote(l)) << "line " << l;
    *want = fold(other, other + kPageSize);
    *got = fold(base, base + kPageSize);
    EXPECT_EQ(got->remote, want->remote);
    EXPECT_EQ(got->shared_reads, want->shared_reads);
    EXPECT_EQ(got->shared_writes, want->shared_writes);
  }
  std::vector<char> storage = std::vector<char>(4 * kPageSize);
  uintptr_t base = 0;
  PageDetail *detail = nullptr;
};

}  // namespace

TEST_F(SharingTest, AWriteInvalidatesEveryOtherCopy) {
  // Threads 2..4 (tags) read the line thread 1 wrote, then thread 1 writes
  // again: three copies go.
  trackSharedAccess(1, detail, base, 8, true, false, 0);  // makes the line tracked
  for (uint32_t tag = 2; tag <= 4; ++tag) trackSharedAccess(tag, detail, base, 8, false, true, 0);
  trackSharedAccess(1, detail, base, 8, true, false, 0);
  ObjectProfile p = fold(base, base + 64);
  EXPECT_EQ(p.invalidations, 3u);
  // A write by a thread that holds the only copy invalidates nothing.
  detail = shadowMemory().detailFor(shadowMemory().entryFor(base));
  trackSharedAccess(1, detail, base, 8, true, false, 0);
  trackSharedAccess(1, detail, base, 8, true, false, 0);
  EXPECT_EQ(fold(base, base + 64).invalidations, 0u);
}

TEST_F(SharingTest, DisjointWordsAreFalseSharingSharedWordsTrue) {
  // Two threads alternately write their own 4-byte halves of one 8-byte slot.
  for (int i = 0; i < 50; ++i) {
    trackSharedAccess(1, detail, base + 0, 4, true, false, 0);
    trackSharedAccess(2, detail, base + 4, 4, true, true, 0);
  }
  ObjectProfile p = fold(base, base + 64);
  EXPECT_GT(p.invalidations_false, 90u);
  EXPECT_EQ(p.invalidations_true, 0u);
  ASSERT_TRUE(p.false_sharing_line.valid);
  EXPECT_EQ(p.false_sharing_line.first_tag[0], 1u);
  EXPECT_EQ(p.false_sharing_line.first_tag[1], 2u);

  detail = shadowMemory().detailFor(shadowMemory().entryFor(base));
  for (int i = 0; i < 50; ++i) {  // now both write the same word
    trackSharedAccess(1, detail, base + 8, 4, true, false, 0);
    trackSharedAccess(2, detail, base + 8, 4, true, true, 0);
  }
  p = fold(base, base + 64);
  EXPECT_GT(p.invalidations_true, 90u);
  EXPECT_LT(p.invalidations_false, 3u);
}

TEST_F(SharingTest, AccessSizeDecidesWhichWordsAreTouched) {
  // Thread 1 writes 8 bytes at offset 0 (words 0 and 1); thread 2 writes 4
  // bytes at offset 4 (word 1): they share word 1, so this is true sharing.
  for (int i = 0; i < 20; ++i) {
    trackSharedAccess(1, detail, base, 8, true, false, 0);
    trackSharedAccess(2, detail, base + 4, 4, true, true, 0);
  }
  ObjectProfile p = fold(base, base + 64);
  EXPECT_GT(p.invalidations_true, p.invalidations_false);
}

TEST_F(SharingTest, PageThreadsAreExactForManyThreads) {
  for (uint32_t tag = 1; tag <= 300; ++tag) trackSharedAccess(tag, detail, base + 128, 8, false, true, 0);
  trackSharedAccess(7, detail, base + 128, 8, false, true, 0);
  EXPECT_EQ(pageThreadAccesses(*detail, 7), 2u);
  EXPECT_EQ(pageThreadAccesses(*detail, 300), 1u);
  uint32_t users = 0;
  forEachPageThread(*detail, [&](uint32_t, uint64_t) { ++users; });
  EXPECT_EQ(users, 300u);
  ObjectProfile p = fold(base, base + kPageSize);
  EXPECT_EQ(p.max_threads_per_page, 300u);
  EXPECT_EQ(p.single_thread_pages, 0u);
}

TEST_F(SharingTest, ReadsAfterTheLastWriteAreCounted) {
  trackSharedAccess(1, detail, base, 8, true, false, 0);
  for (int i = 0; i < 10; ++i) trackSharedAccess(2, detail, base + 64, 8, false, true, 0);
  trackSharedAccess(1, detail, base, 8, true, false, 0);
  for (int i = 0; i < 5; ++i) trackSharedAccess(2, detail, base + 64, 8, false, true, 0);
  ObjectProfile p = fold(base, base + kPageSize);
  EXPECT_EQ(p.reads_after_last_write, 5u);
  EXPECT_EQ(p.shared_reads, 15u);
  EXPECT_EQ(p.shared_writes, 2u);
}

TEST_F(SharingTest, PagesDominatedByOneThreadFormSegments) {
  // Pages 0-1 used by thread index 1 (tag 2), pages 2-3 by thread index 2.
  for (unsigned page = 0; page < 4; ++page) {
    PageDetail *d = shadowMemory().detailFor(shadowMemory().entryFor(base + page * kPageSize));
    uint32_t tag = page < 2 ? 2 : 3;
    for (int i = 0; i < 20; ++i)
      trackSharedAccess(tag, d, base + page * kPageSize, 8, false, true, 0x1234);
  }
  ObjectProfile p = fold(base, base + 4 * kPageSize);
  EXPECT_EQ(p.shared_pages, 4u);
  EXPECT_EQ(p.single_thread_pages, 4u);
  ASSERT_EQ(p.segment_count, 2u);
  EXPECT_EQ(p.segments[0].first_page, 0u);
  EXPECT_EQ(p.segments[0].last_page, 1u);
  EXPECT_EQ(p.segments[0].thread, 1u);
  EXPECT_EQ(p.segments[1].thread, 2u);
  EXPECT_EQ(p.dominant_thread_count, 2u);
  EXPECT_EQ(p.sites[0].pc, 0x1234u);
  EXPECT_EQ(p.sites[0].count, 80u);
}

TEST_F(SharingTest, OnContendedLinesOnlyMissesCountAsRemote) {
  // Thread 2 reads a line thread 1 keeps writing. Until a write invalidates a
  // copy every read counts (5); after that, one miss per write (9), however
  // often it re-reads its valid copy in between.
  int counted = 0;
  for (int round = 0; round < 10; ++round) {
    trackSharedAccess(1, detail, base, 8, true, false, 0);
    for (int i = 0; i < 5; ++i) counted += trackSharedAccess(2, detail, base, 8, false, true, 0);
  }
  EXPECT_EQ(counted, 14);
  // A line never written while shared counts every remote read.
  PageDetail *other = shadowMemory().detailFor(shadowMemory().entryFor(base + kPageSize));
  int reads = 0;
  for (int i = 0; i < 7; ++i)
    reads += trackSharedAccess(2, other, base + kPageSize, 8, false, true, 0);
  EXPECT_EQ(reads, 7);
}

TEST_F(SharingTest, CachedCountsReachThePageWhenFlushed) {
  SharedPageCache cache;
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(countSharedAccess(cache, 2, detail, base + 64 * (i % 3), lineWordMask(0, 8), false,
                                true, 0x42),
              1u);
  EXPECT_EQ(pageAccessTotals(*detail).reads, 0u);  // still in the thread
  flushSharedPageCache(cache, 2);
  EXPECT_EQ(pageAccessTotals(*detail).reads, 10u);
  EXPECT_EQ(pageThreadAccesses(*detail, 2), 10u);
  EXPECT_EQ(detail->lineRemote(0) + detail->lineRemote(1) + detail->lineRemote(2),
            10u);
  ObjectProfile p = fold(base, base + kPageSize);
  EXPECT_EQ(p.remote, 10u);
  EXPECT_EQ(p.sites[0].pc, 0x42u);
  EXPECT_EQ(p.sites[0].count, 10u);
  flushSharedPageCache(cache, 2, true);
}

// A thread that read every line of the page hands the part common to all
// lines over as one count; folding gives each line, and each object on the
// page, exactly what per-line counts would.
TEST_F(SharingTest, EvenWholePageReadsFoldLikePerLineCounts) {
  SharedPageCache cache;
  for (unsigned line = 0; line < kLinesPerPage; ++line)
    for (unsigned k = 0; k < 3 + (line == 5 ? 4 : 0); ++k)
      countSharedAccess(cache, 2, detail, base + 64 * line, lineWordMask(0, 8), false, true, 0);
  flushSharedPageCache(cache, 2);
  EXPECT_EQ(detail->line_remote_even.load(), 3u);
  EXPECT_EQ(detail->line_remote[5].load(), 4u);  // the rest, on its line
  EXPECT_EQ(detail->line_remote[6].load(), 0u);
  EXPECT_EQ(detail->lineRemote(5), 7u);
  EXPECT_EQ(detail->lineRemote(6), 3u);
  // Two objects on the page: lines 0..9 and 10..63.
  EXPECT_EQ(fold(base, base + 10 * 64).remote, 10u * 3 + 4);
  EXPECT_EQ(detail->line_remote_even.load(), 0u);  // spread into the lines
  EXPECT_EQ(fold(base + 10 * 64, base + kPageSize).remote, 54u * 3);
  flushSharedPageCache(cache, 2, true);
}

TEST_F(SharingTest, CountsBufferedForAResetPageAreDropped) {
  SharedPageCache cache;
  for (int i = 0; i < 5; ++i)
    countSharedAccess(cache, 2, detail, base, lineWordMask(base, 8), false, true, 0);
  fold(base, base + kPageSize);  // the object goes away; the page is reset
  flushSharedPageCache(cache, 2, true);
  EXPECT_EQ(pageAccessTotals(*detail).reads, 0u);
  EXPECT_EQ(pageThreadAccesses(*detail, 2), 0u);
}

// The cache is an optimisation only: for any interleaving of accesses by
// several threads it must decide every access as the exact path does, and
// leave the same counts once flushed.
TEST_F(SharingTest, CachedPathMatchesTheExactPath) {
  struct Access {
    uint32_t tag;
    uintptr_t offset;
    uint32_t size;
    bool write;
  };
  std::vector<Access> trace;
  uint64_t seed = 12345;
  auto next = [&seed](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  for (int i = 0; i < 20000; ++i) {
    // First one thread alone (the page's single-user phase), then all four.
    uint32_t tag = i < 3000 ? 2 : uint32_t(1 + next(4));
    // Two pages; a few hot lines, with a run of accesses by one thread now
    // and then (the case the cache exists for).
    uintptr_t offset = next(2) * kPageSize + next(6) * kLineSize + 4 * next(16);
    uint32_t sizes[] = {1, 4, 8};
    uint32_t size = sizes[next(3)];
    if ((offset & (kLineSize - 1)) + size > kLineSize) size = 4;
    bool write = next(4) == 0;
    int run = next(10) == 0 ? int(next(30)) : 1;
    for (int r = 0; r < run; ++r) trace.push_back({tag, offset, size, write && r == 0});
  }
  // Each run on its own fresh pages (reset lines keep their word tables).
  auto detailOf = [&](uintptr_t at) {
    return shadowMemory().detailFor(shadowMemory().entryFor(at));
  };
  std::vector<bool> exact, cached;  // per access: counted as remote
  for (const Access &a : trace)
    exact.push_back(trackSharedAccess(a.tag, detailOf(base + a.offset), base + a.offset, a.size,
                                      a.write, a.tag != 1, 0x10 + a.tag));
  ObjectProfile want = fold(base, base + 2 * kPageSize);

  const uintptr_t other = base + 2 * kPageSize;
  SharedPageCache caches[5];
  for (const Access &a : trace)
    cached.push_back(countSharedAccess(caches[a.tag], a.tag, detailOf(other + a.offset),
                                       other + a.offset, lineWordMask(a.offset, a.size), a.write,
                                       a.tag != 1, 0x10 + a.tag) == 1);
  for (uint32_t tag = 1; tag <= 4; ++tag) flushSharedPageCache(caches[tag], tag, true);
  ObjectProfile got = fold(other, other + 2 * kPageSize);

  ASSERT_EQ(exact.size(), cached.size());
  for (size_t i = 0; i < exact.size(); ++i) ASSERT_EQ(exact[i], cached[i]) << "access " << i;
  EXPECT_EQ(got.remote, want.remote);
  EXPECT_GT(want.invalidations, 0u);
  EXPECT_EQ(got.invalidations, want.invalidations);
  EXPECT_EQ(got.invalidations_true, want.invalidations_true);
  EXPECT_EQ(got.invalidations_false, want.invalidations_false);
  EXPECT_EQ(got.shared_reads, want.shared_reads);
  EXPECT_EQ(got.shared_writes, want.shared_writes);
  EXPECT_EQ(got.shared_pages, want.shared_pages);
  EXPECT_EQ(got.max_threads_per_page, want.max_threads_per_page);
  uint64_t want_sites = 0, got_sites = 0;
  for (const SiteCount &s : want.sites) want_sites += s.count;
  for (const SiteCount &s : got.sites) got_sites += s.count;
  EXPECT_EQ(got_sites, want_sites);
}

// A range hook's repeats count as that many accesses made in a row: the same
// remote count, invalidations and word detail as single accesses.
TEST_F(SharingTest, RepeatedAccessesCountLikeSingleOnes) {
  const uintptr_t other = base + 2 * kPageSize;
  PageDetail *d1 = detail;
  PageDetail *d2 = shadowMemory().detailFor(shadowMemory().entryFor(other));
  SharedPageCache one[3], bulk[3];
  uint64_t singles = 0, repeats = 0;
  for (int round = 0; round < 20; ++round) {
    // Thread 1 writes words 0-1 of line 0 four times; thread 2 reads words
    // 2-3 six times (false sharing), then reads line 1 eight times.
    for (int i = 0; i < 4; ++i)
      singles += countSharedAccess(one[1], 1, d1, base, lineWordMask(0, 8), true, false, 0x1);
    for (int i = 0; i < 6; ++i)
      singles += countSharedAccess(one[2], 2, d1, base + 8, lineWordMask(8, 8), false, true, 0x2);
    for (int i = 0; i < 8; ++i)
      singles += countSharedAccess(one[2], 2, d1, base + 64, lineWordMask(0, 8), false, true, 0x3);
    repeats += countSharedAccess(bulk[1], 1, d2, other, lineWordMask(0, 8), true, false, 0x1, 4);
    repeats += countSharedAccess(bulk[2], 2, d2, other + 8, lineWordMask(8, 8), false, true, 0x2, 6);
    repeats += countSharedAccess(bulk[2], 2, d2, other + 64, lineWordMask(0, 8), false, true, 0x3, 8);
  }
  for (uint32_t tag = 1; tag <= 2; ++tag) {
    flushSharedPageCache(one[tag], tag, true);
    flushSharedPageCache(bulk[tag], tag, true);
  }
  ObjectProfile want = fold(base, base + kPageSize);
  ObjectProfile got = fold(other, other + kPageSize);
  EXPECT_EQ(repeats, singles);
  EXPECT_EQ(got.remote, want.remote);
  EXPECT_GT(want.invalidations_false, 0u);
  EXPECT_EQ(got.invalidations, want.invalidations);
  EXPECT_EQ(got.invalidations_false, want.invalidations_false);
  EXPECT_EQ(got.invalidations_true, want.invalidations_true);
  EXPECT_EQ(got.shared_reads, want.shared_reads);
  EXPECT_EQ(got.shared_writes, want.shared_writes);
}

// A range hook on a page one thread uses alone counts what a hook per element
// would (an element wider than a single access and crossing a line is one
// access to each line): the same lines, writes and words in the page's
// single-user state, the same remote counts and reads and writes.
// A single-user page's lines get their words noted by each range that
// touches them: a second pass over other words of the same lines adds those
// (lines are skipped only once every word is noted).
TEST_F(SharingTest, LaterRangesNoteTheirWordsOnSingleUserLines) {
  SharedPageCache cache;
  const uint32_t tag = 2;
  countSharedAccess(cache, tag, detail, base, lineWordMask(0, 4), true, true, 0x1);
  uint64_t accesses = 0, remote = 0, spill = 0;
  const uint64_t count = kPageSize / 8 - 8;  // every line but the last
  ASSERT_EQ(countRangeInSharedPage(cache, tag, detail, base, 8, count, 4, true, true, 0x40, 0,
                                   &accesses, &remote, &spill),
            count);
  EXPECT_EQ(detail->su_noted[3].load(), 0x5555u);
  EXPECT_EQ(detail->su_written[3].load(), 0x5555u);
  ASSERT_EQ(countRangeInSharedPage(cache, tag, detail, base + 4, 8, count, 4, false, true, 0x40, 0,
                                   &accesses, &remote, &spill),
            count);
  EXPECT_EQ(detail->su_noted[3].load(), 0xffffu);
  EXPECT_EQ(detail->su_written[3].load(), 0x5555u);  // the second pass read
  ASSERT_EQ(countRangeInSharedPage(cache, tag, detail, base + 4, 8, count, 4, true, true, 0x40, 0,
                                   &accesses, &remote, &spill),
            count);
  for (unsigned l = 0; l + 1 < kLinesPerPage; ++l) {
    EXPECT_EQ(detail->su_noted[l].load(), 0xffffu) << "line " << l;
    EXPECT_EQ(detail->su_written[l].load(), 0xffffu) << "line " << l;
  }
  flushSharedPageCache(cache, tag, true);
}

TEST_F(SharingTest, RangesCountLikeTheirElements) {
  const uintptr_t other = base + 2 * kPageSize;
  PageDetail *dr = detail;  // by range hooks
  PageDetail *de = shadowMemory().detailFor(shadowMemory().entryFor(other));  // per element
  ASSERT_NE(de, nullptr);
  SharedPageCache ranges, elements;
  const uint32_t tag = 2;
  // Thread 2 alone uses the pages since they became shared, and wrote them.
  countSharedAccess(ranges, tag, dr, base, lineWordMask(0, 4), true, true, 0x1);
  countSharedAccess(elements, tag, de, other, lineWordMask(0, 4), true, true, 0x1);
  uint64_t seed = 99;
  auto next = [&seed](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  uint64_t by_range = 0, by_element = 0;
  for (int i = 0; i < 400; ++i) {
    const uint64_t step = uint64_t(4) << next(5);  // 4 .. 64
    uint64_t size = uint64_t(1) << next(7);        // 1 .. 64
    if (size > step) size = step;
    const uintptr_t start = next(kPageSize - size);
    const uint64_t count = 1 + next(2 * kPageSize / step);
    const bool write = next(3) == 0;
    // Now and then the tail of an element of the page before, first.
    const uint16_t lead = next(4) == 0 ? lineWordMask(0, uint32_t(1 + next(40))) : 0;
    uint64_t accesses = 0, remote = 0, spill = 0;
    uint64_t taken = countRangeInSharedPage(ranges, tag, dr, base + start, step, count, size,
                                            write, true, 0x40, lead, &accesses, &remote, &spill);
    EXPECT_EQ(remote, accesses);  // a single-user page: every access is remote
    ASSERT_GT(taken, 0u) << "step " << step << " size " << size << " at " << start;
    by_range += accesses;
    if (lead) {
      countSharedAccess(elements, tag, de, other, lead, write, true, 0x40);
      by_element += 1;
    }
    uint64_t want_spill = 0;
    for (uint64_t k = 0; k < taken; ++k) {
      uintptr_t at = other + start + k * step;
      uintptr_t offset = at & (kLineSize - 1);
      if ((at & (kPageSize - 1)) + size > kPageSize) {
        // Crosses into the next page: the part here, the rest left there.
        ASSERT_EQ(k + 1, taken);
        countSharedAccess(elements, tag, de, at, lineWordMask(at, uint32_t(size)), write, true,
                          0x40);
        by_element += 1;
        if (size > kSingleAccessBytes) want_spill = (at & (kPageSize - 1)) + size - kPageSize;
      } else if (offset + size <= kLineSize || size <= kSingleAccessBytes) {
        countSharedAccess(elements, tag, de, at, lineWordMask(at, uint32_t(size)), write, true,
                          0x40);
        by_element += 1;
      } else {
        uintptr_t next_line = (at | (kLineSize - 1)) + 1;
        countSharedAccess(elements, tag, de, at, lineWordMask(at, uint32_t(size)), write, true,
                          0x40);
        countSharedAccess(elements, tag, de, next_line,
                          lineWordMask(next_line, uint32_t(offset + size - kLineSize)), write,
                          true, 0x40);
        by_element += 2;
      }
    }
    EXPECT_EQ(spill, want_spill);
  }
  EXPECT_EQ(by_range, by_element);
  EXPECT_EQ(dr->sole_user.load(), tag);
  EXPECT_EQ(dr->su_lines.load(), de->su_lines.load());
  EXPECT_EQ(dr->su_words.load(), de->su_words.load());
  for (unsigned l = 0; l < kLinesPerPage; ++l) {
    EXPECT_EQ(dr->su_writes[l].load(), de->su_writes[l].load()) << "line " << l;
    EXPECT_EQ(dr->su_noted[l].load(), de->su_noted[l].load()) << "line " << l;
    EXPECT_EQ(dr->su_written[l].load(), de->su_written[l].load()) << "line " << l;
  }
  flushSharedPageCache(ranges, tag, true);
  flushSharedPageCache(elements, tag, true);
  ObjectProfile got, want;
  expectSamePageCounts(dr, de, other, &got, &want);
  EXPECT_GT(want.remote, 1000u);
}

// A thread that loops over more shared pages than the small cache holds
// (but fewer than the large one does) switches to the large cache, and no
// count is lost on the way; one that reads at random over many more pages
// keeps the small one.
TEST_F(SharingTest, CacheGrowsOnlyWhenALargerOneWouldHit) {
  auto pagesOf = [](std::vector<char> &mem, unsigned pages, std::vector<PageDetail *> *details) {
    uintptr_t first = (reinterpret_cast<uintptr_t>(mem.data()) + kPageSize - 1) & ~(kPageSize - 1);
    for (unsigned i = 0; i < pages; ++i)
      details->push_back(shadowMemory().detailFor(shadowMemory().entryFor(first + i * kPageSize)));
    return first;
  };
  constexpr unsigned kLoopPages = 200, kRounds = 40;
  std::vector<char> loop_mem((kLoopPages + 1) * kPageSize);
  std::vector<PageDetail *> loop;
  const uintptr_t loop_base = pagesOf(loop_mem, kLoopPages, &loop);
  for (PageDetail *d : loop) ASSERT_NE(d, nullptr);
  SharedPageCache looping;
  for (unsigned r = 0; r < kRounds; ++r)
    for (unsigned i = 0; i < kLoopPages; ++i)
      countSharedAccess(looping, 2, loop[i], loop_base + i * kPageSize, lineWordMask(0, 8), false,
                        true, 0);
  EXPECT_EQ(sharedPageSlotCount(looping.slots), kLargeSharedPageSlots);
  flushSharedPageCache(looping, 2, true);
  uint64_t reads = 0;
  for (PageDetail *d : loop) reads += pageAccessTotals(*d).reads;
  EXPECT_EQ(reads, uint64_t(kLoopPages) * kRounds);

  constexpr unsigned kRandomPages = 2048;
  std::vector<char> random_mem((kRandomPages + 1) * kPageSize);
  std::vector<PageDetail *> scattered;
  const uintptr_t random_base = pagesOf(random_mem, kRandomPages, &scattered);
  for (PageDetail *d : scattered) ASSERT_NE(d, nullptr);
  SharedPageCache random;
  uint64_t seed = 7;
  for (unsigned k = 0; k < 40000; ++k) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    unsigned i = unsigned((seed >> 33) % kRandomPages);
    countSharedAccess(random, 2, scattered[i], random_base + i * kPageSize, lineWordMask(0, 8),
                      false, true, 0);
  }
  EXPECT_EQ(sharedPageSlotCount(random.slots), kSharedPageSlots);
  flushSharedPageCache(random, 2, true);

  ObjectProfile drop;  // leave the shadow clean
  takeObjectProfile(loop_base, loop_base + kLoopPages * kPageSize, true, &drop);
  takeObjectProfile(random_base, random_base + kRandomPages * kPageSize, true, &drop);
}

// On a page several threads use and write, a range hook goes line by line
// through the line model, as the per-line path does (the elements that
// start and end in a line as one access of their words, repeated): the
// same remote counts, invalidations and word classification, with another
// thread's accesses interleaved between the ranges.
TEST_F(SharingTest, RangesOnPagesSeveralThreadsWriteCountLikeTheirLines) {
  const uintptr_t other = base + 2 * kPageSize;
  PageDetail *dr = detail;  // by range hooks
  PageDetail *de = shadowMemory().detailFor(shadowMemory().entryFor(other));  // line by line
  ASSERT_NE(de, nullptr);
  SharedPageCache ranges, lines, third_r, third_e;
  const uint32_t tag = 2, third = 3;
  uint64_t seed = 5;
  auto next = [&seed](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  // Both threads write both pages: they leave single-user mode.
  for (uint32_t t : {tag, third}) {
    countSharedAccess(t == tag ? ranges : third_r, t, dr, base, lineWordMask(0, 8), true, true, 0);
    countSharedAccess(t == tag ? lines : third_e, t, de, other, lineWordMask(0, 8), true, true, 0);
  }
  ASSERT_EQ(dr->sole_user.load(), kManyUsers);
  uint64_t by_range = 0, by_line = 0, remote_range = 0, remote_line = 0;
  for (int i = 0; i < 300; ++i) {
    const uint64_t step = uint64_t(4) << next(5);  // 4 .. 64
    uint64_t size = uint64_t(1) << next(4);        // 1 .. 8
    if (size > step) size = step;
    const uintptr_t start = next(kPageSize - size);
    const uint64_t count = 1 + next(kPageSize / step);
    const bool write = next(3) == 0;
    // Now and then the tail of an element of the page before, first.
    const uint16_t lead = next(4) == 0 ? lineWordMask(0, uint32_t(1 + next(40))) : 0;
    uint64_t accesses = 0, remote = 0, spill = 0;
    const uint64_t taken = countRangeInSharedPage(ranges, tag, dr, base + start, step, count, size,
                                                  write, true, 0x40, lead, &accesses, &remote,
                                                  &spill);
    ASSERT_GT(taken, 0u);
    EXPECT_EQ(spill, 0u);  // elements of up to 8 bytes leave nothing for the next page
    by_range += accesses;
    remote_range += remote;
    // The same elements, line by line (elements no wider than a word pair:
    // one access each, to the line they start in), the lead with the
    // elements of the page's first line.
    uint64_t k = 0;
    bool first = true;
    while (k < taken || (first && lead)) {
      const uintptr_t at = lead && first ? other : other + start + k * step;
      const uintptr_t line = at & ~(kLineSize - 1);
      uint16_t words = lead && first ? lead : 0;
      uint64_t n = lead && first ? 1 : 0;
      first = false;
      for (; k < taken && ((other + start + k * step) & ~(kLineSize - 1)) == line; ++k, ++n)
        words |= lineWordMask(other + start + k * step, uint32_t(size));
      remote_line += countSharedAccess(lines, tag, de, at, words, write, true, 0x40, n);
      by_line += n;
    }
    // The other thread writes a random word of each page in between.
    const uintptr_t w = next(kPageSize / 8) * 8;
    countSharedAccess(third_r, third, dr, base + w, lineWordMask(w, 8), true, true, 0x50);
    countSharedAccess(third_e, third, de, other + w, lineWordMask(w, 8), true, true, 0x50);
  }
  EXPECT_EQ(by_range, by_line);
  EXPECT_EQ(remote_range, remote_line);
  EXPECT_LT(remote_range, by_range);  // some were hits on contended lines
  for (SharedPageCache *c : {&ranges, &lines}) flushSharedPageCache(*c, tag, true);
  for (SharedPageCache *c : {&third_r, &third_e}) flushSharedPageCache(*c, third, true);
  ObjectProfile got, want;
  expectSamePageCounts(dr, de, other, &got, &want);
  EXPECT_GT(want.invalidations, 100u);
  EXPECT_EQ(got.invalidations, want.invalidations);
  EXPECT_EQ(got.invalidations_true, want.invalidations_true);
  EXPECT_EQ(got.invalidations_false, want.invalidations_false);
}
