#include "core/line_windows.h"
#include "core/object_fold.h"
#include "core/shadow_memory.h"
#include "core/shared_page_cache.h"
#include "core/sharing_tracker.h"
#include "core/thread_registry.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <vector>

using namespace numaperf;

namespace {

// One access of a trace replayed through both paths.
struct TraceAccess {
  uint32_t tag;
  uintptr_t offset;  // from the first of two pages
  uint32_t size;
  bool write;
};

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
  // Thread 2 reads every line of the page at `base` 3 times, line 5 7 times,
  // through `cache`, flushed: 3 go to the page's even count.
  void readEveryLineThriceLineFiveSeven(SharedPageCache &cache) {
    for (unsigned line = 0; line < kLinesPerPage; ++line)
      for (unsigned k = 0; k < 3 + (line == 5 ? 4 : 0); ++k)
        countSharedAccess(cache, 2, detail, base + 64 * line, lineWordMask(0, 8), false, true, 0);
    flushSharedPageCache(cache, 2);
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
  // Calls `at_check`, if any, with the cached path's first page before
  // access `check_at` of the trace.
  void expectCachedMatchesExact(const std::vector<TraceAccess> &trace,
                                const std::function<void(PageDetail *)> &at_check = nullptr,
                                size_t check_at = 0);
  // The detail of the page two pages after `base`, where tests that count
  // one page two ways put the reference.
  PageDetail *referenceDetail() {
    return shadowMemory().detailFor(shadowMemory().entryFor(base + 2 * kPageSize));
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

TEST_F(SharingTest, TheNextObjectOnALineStartsWithNoWordsNoted) {
  // The first object's threads 1 and 2 both write word 0 (true sharing);
  // emptying the line for the next object keeps the word table but not its
  // tags.
  for (int i = 0; i < 20; ++i) {
    trackSharedAccess(1, detail, base, 4, true, false, 0);
    trackSharedAccess(2, detail, base, 4, true, true, 0);
  }
  ObjectProfile p = fold(base, base + 64);
  EXPECT_GT(p.invalidations_true, 30u);
  // The next object's threads write words of their own: false sharing, and
  // the evidence names only them.
  detail = shadowMemory().detailFor(shadowMemory().entryFor(base));
  for (int i = 0; i < 20; ++i) {
    trackSharedAccess(3, detail, base + 0, 4, true, false, 0);
    trackSharedAccess(3, detail, base + 4, 4, true, false, 0);
    trackSharedAccess(4, detail, base + 8, 4, true, true, 0);
  }
  p = fold(base, base + 64);
  EXPECT_GT(p.invalidations_false, 30u);
  EXPECT_EQ(p.invalidations_true, 0u);
  ASSERT_TRUE(p.false_sharing_line.valid);
  EXPECT_EQ(p.false_sharing_line.first_tag[0], 3u);
  EXPECT_EQ(p.false_sharing_line.first_tag[1], 3u);
  EXPECT_EQ(p.false_sharing_line.first_tag[2], 4u);
  for (unsigned w = 0; w < 16; ++w) EXPECT_EQ(p.false_sharing_line.other_tag[w], 0u) << w;
  for (unsigned w = 3; w < 16; ++w) EXPECT_EQ(p.false_sharing_line.first_tag[w], 0u) << w;
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
  readEveryLineThriceLineFiveSeven(cache);
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

// Objects that split lines between them: the lines an object covers whole
// take the even count with their own when it is folded (not spread first),
// the others keep it for their objects, and nothing is lost or counted twice.
TEST_F(SharingTest, EvenCountsFoldWithObjectsSplittingLines) {
  SharedPageCache cache;
  readEveryLineThriceLineFiveSeven(cache);
  ASSERT_EQ(detail->line_remote_even.load(), 3u);
  const uintptr_t b = base + 5 * 64 + 16, c = base + 20 * 64 + 40;
  // The middle object first: lines 6..19 whole, and by bytes (no line was
  // written, so no word decides; a record an earlier test left on a line,
  // without words, changes nothing) 48 of line 5's 64 (7 accesses: 5) and
  // 40 of line 20's (3: 1).
  const uint64_t middle = fold(b, c).remote;
  EXPECT_EQ(middle, 14u * 3 + 5 + 1);
  EXPECT_EQ(detail->line_remote_even.load(), 0u);
  EXPECT_EQ(detail->lineRemote(4), 3u);  // spread into the lines left
  EXPECT_EQ(detail->lineRemote(5), 2u);
  EXPECT_EQ(detail->lineRemote(20), 2u);
  const uint64_t low = fold(base, b).remote, high = fold(c, base + kPageSize).remote;
  EXPECT_EQ(low, 5u * 3 + 2);
  EXPECT_EQ(high, 43u * 3 + 2);
  EXPECT_EQ(low + middle + high, 64u * 3 + 4);
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

namespace {

uint64_t nextRandom(uint64_t &seed, uint64_t n) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (seed >> 33) % n;
}

// Appends `n` random accesses by `tags()` (a few hot lines of two pages,
// now and then a run of repeats by one thread: the case the cache exists
// for); `write_one_in` 0: reads only.
template <typename Tags>
void addRandomAccesses(std::vector<TraceAccess> *trace, uint64_t &seed, int n, Tags tags,
                       uint64_t write_one_in) {
  for (int i = 0; i < n; ++i) {
    uint32_t tag = tags();
    uintptr_t offset = nextRandom(seed, 2) * kPageSize + nextRandom(seed, 6) * kLineSize +
                       4 * nextRandom(seed, 16);
    const uint32_t sizes[] = {1, 4, 8};
    uint32_t size = sizes[nextRandom(seed, 3)];
    if ((offset & (kLineSize - 1)) + size > kLineSize) size = 4;
    bool write = write_one_in && nextRandom(seed, write_one_in) == 0;
    int run = nextRandom(seed, 10) == 0 ? int(nextRandom(seed, 30)) : 1;
    for (int r = 0; r < run; ++r) trace->push_back({tag, offset, size, write && r == 0});
  }
}

}  // namespace

// The cache is an optimisation only: for any interleaving of accesses by
// several threads it must decide every access as the exact path does, and
// leave the same counts once flushed. Replays `trace` through both, each on
// its own fresh pages, and compares.
void SharingTest::expectCachedMatchesExact(const std::vector<TraceAccess> &trace,
                                           const std::function<void(PageDetail *)> &at_check,
                                           size_t check_at) {
  auto detailOf = [&](uintptr_t at) {
    return shadowMemory().detailFor(shadowMemory().entryFor(at));
  };
  std::vector<bool> exact, cached;  // per access: counted as remote
  for (const TraceAccess &a : trace)
    exact.push_back(trackSharedAccess(a.tag, detailOf(base + a.offset), base + a.offset, a.size,
                                      a.write, a.tag != 1, 0x10 + a.tag));
  // The words each line saw, saw used by two threads, and saw written decide
  // which object owns it and are the report's evidence (object_fold.cpp).
  auto wordsOf = [&](uintptr_t pages) {
    std::vector<uint64_t> words;
    for (uintptr_t page = pages; page < pages + 2 * kPageSize; page += kPageSize)
      for (const auto &slot : detailOf(page)->lines) {
        const LineShare *l = slot.load();
        words.push_back(l && l->words ? uint64_t(l->words_seen.load()) |
                                            uint64_t(l->words_both.load()) << 16 |
                                            uint64_t(l->words_written.load()) << 32
                                      : 0);
      }
    return words;
  };
  const std::vector<uint64_t> want_words = wordsOf(base);
  ObjectProfile want = fold(base, base + 2 * kPageSize);

  const uintptr_t other = base + 2 * kPageSize;
  std::map<uint32_t, SharedPageCache> caches;  // per tag
  for (size_t i = 0; i < trace.size(); ++i) {
    const TraceAccess &a = trace[i];
    if (i == check_at && at_check) at_check(detailOf(other));
    cached.push_back(countSharedAccess(caches[a.tag], a.tag, detailOf(other + a.offset),
                                       other + a.offset, lineWordMask(a.offset, a.size), a.write,
                                       a.tag != 1, 0x10 + a.tag) == 1);
  }
  for (auto &[tag, cache] : caches) flushSharedPageCache(cache, tag, true);
  EXPECT_EQ(wordsOf(other), want_words);
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

TEST_F(SharingTest, CachedPathMatchesTheExactPath) {
  std::vector<TraceAccess> trace;
  uint64_t seed = 12345;
  // First one thread alone (the page's single-user phase), then all four.
  addRandomAccesses(&trace, seed, 3000, [] { return 2u; }, 4);
  addRandomAccesses(&trace, seed, 17000, [&seed] { return uint32_t(1 + nextRandom(seed, 4)); }, 4);
  expectCachedMatchesExact(trace);
}

// Rereads of lines a thread holds take HeldLine's shortcut, which must
// decide them as the line model does: mostly reads of a few lines, now and
// then a write that takes the copies.
TEST_F(SharingTest, RereadsOfHeldLinesCountLikeTheExactPath) {
  std::vector<TraceAccess> trace;
  uint64_t seed = 777;
  addRandomAccesses(&trace, seed, 20000, [&seed] { return uint32_t(1 + nextRandom(seed, 4)); }, 40);
  expectCachedMatchesExact(trace);
}

// The shortcut is taken for a reread of a held line, and not once another
// thread's write has taken the copy: that read is a miss again.
TEST_F(SharingTest, AHeldLineIsRereadThroughTheShortcutUntilAWriteTakesIt) {
  SharedPageCache writer, reader;
  const uint16_t words = lineWordMask(0, 8);
  auto write = [&] { countSharedAccess(writer, 1, detail, base, words, true, false, 0x1); };
  auto read = [&] { return countSharedAccess(reader, 2, detail, base, words, false, true, 0x2); };
  const HeldLineRead &held = reader.held[(base >> kLineShift) % kHeldLineReads];
  write();
  EXPECT_EQ(read(), 1u);  // a miss
  write();                // takes the reader's copy: the line is contended
  EXPECT_EQ(read(), 1u);  // a miss again
  EXPECT_EQ(read(), 0u);  // a hit, through the line model
  EXPECT_EQ(held.page, detail);
  EXPECT_EQ(read(), 0u);  // a hit, through the shortcut
  EXPECT_EQ(read(), 0u);
  write();
  EXPECT_EQ(read(), 1u);  // the copy is gone: a miss, whatever the shortcut remembers
  flushSharedPageCache(writer, 1, true);
  flushSharedPageCache(reader, 2, true);
  EXPECT_EQ(held.page, nullptr);  // emptied with the slots
  const ObjectProfile p = fold(base, base + kPageSize);
  EXPECT_EQ(p.shared_reads, 6u);
  EXPECT_EQ(p.shared_writes, 3u);
  EXPECT_EQ(p.remote, 3u);
}

// Runs of accesses by one thread to a line it took from the others (a shared
// bin, a counter), reads and writes of its words mixed, the threads taking
// turns between runs: the lock-free hits on a thread's only copy meet
// copies taken in every way.
TEST_F(SharingTest, RunsOfWritesToAnOnlyCopyCountLikeTheExactPath) {
  std::vector<TraceAccess> trace;
  uint64_t seed = 4242;
  for (int i = 0; i < 3000; ++i) {
    const uint32_t tag = uint32_t(1 + nextRandom(seed, 4));
    const uintptr_t line = nextRandom(seed, 2) * kPageSize + nextRandom(seed, 4) * kLineSize;
    const int run = 1 + int(nextRandom(seed, 12));
    for (int r = 0; r < run; ++r)
      trace.push_back({tag, line + 8 * nextRandom(seed, 8), 8, nextRandom(seed, 2) != 0});
  }
  expectCachedMatchesExact(trace);
}

// A range written over a line modelled in time windows is, outside its
// window, only counted as accesses to the page, as single accesses are: no
// copy is taken, none is invalidated. In a window the same range takes the
// other thread's copy.
TEST_F(SharingTest, ARangeOverASampledLineIsModelledOnlyInItsWindow) {
  static uint64_t now = 1;
  setLineWindowClockForTesting(+[] { return now; });
  setLineWindows({8});
  auto clockAt = [](uint64_t window) {
    now = (window << lineWindowShift()) + 1;
    line_windows_detail::t_tally.until_clock = 0;  // read at the next access
  };
  SharedPageCache a, b;
  const uint16_t words = lineWordMask(0, 8);
  auto write = [&](SharedPageCache &c, uint32_t tag) {
    countSharedAccess(c, tag, detail, base, words, true, tag != 1, 0x10 + tag);
  };
  auto range = [&](uint64_t *accesses) {
    uint64_t remote = 0, spill = 0;
    return countRangeInSharedPage(a, 1, detail, base, 8, 8, 8, true, false, 0x3, 0, accesses,
                                  &remote, &spill);
  };
  write(a, 1);
  write(b, 2);  // two users; the line has word detail
  LineShare *line = detail->lines[0].load();
  ASSERT_NE(line, nullptr);
  line->sampling.store(kLineSampledNow | kLineWasSampled);
  clockAt(8);  // open: each thread models the line and learns it is sampled
  write(a, 1);
  write(b, 2);
  const uint64_t before = line->invalidations.load();
  clockAt(9);  // closed
  uint64_t accesses = 0;
  EXPECT_EQ(range(&accesses), 8u);
  EXPECT_EQ(accesses, 8u);
  EXPECT_EQ(line->invalidations.load(), before);
  clockAt(16);  // open again
  EXPECT_EQ(range(&accesses), 8u);
  EXPECT_GT(line->invalidations.load(), before);  // thread 2's copy
  flushSharedPageCache(a, 1, true);
  flushSharedPageCache(b, 2, true);
  setLineWindows({1});
  setLineWindowClockForTesting(nullptr);
}

// A line's word detail begins (a new epoch) while a reader holds its copy,
// its own writes passing the threshold: its next read of another word must
// be noted, so that the other thread's write to that word is true sharing.
TEST_F(SharingTest, ARereadAfterTheWordDetailBeganIsNoted) {
  setWordDetailThreshold(5);
  // Two writers: the page has many users, the line no word detail yet.
  std::vector<TraceAccess> trace = {{1, 0, 4, true},  {3, 0, 4, true},  {2, 4, 4, false},
                                    {2, 4, 4, false}, {2, 4, 4, true},  {2, 4, 4, true},
                                    {2, 4, 4, true},  {2, 8, 4, false}, {1, 8, 4, true},
                                    {2, 8, 4, false}};
  expectCachedMatchesExact(trace);
}

// Threads with tags past the line state's mask (kMaskedHolders) are kept in
// a list under the line's lock, next to masked ones that change the state
// without it: mixed, every access is still decided as the exact path does.
TEST_F(SharingTest, ListedHoldersCountLikeTheExactPath) {
  std::vector<TraceAccess> trace;
  uint64_t seed = 777;
  const uint32_t tags[] = {1, 2, kMaskedHolders, kMaskedHolders + 1, kMaskedHolders + 40};
  addRandomAccesses(&trace, seed, 2000, [] { return 2u; }, 4);
  addRandomAccesses(&trace, seed, 20000, [&] { return tags[nextRandom(seed, 5)]; }, 3);
  // Listed threads alone, then writes by masked threads that take their copies.
  addRandomAccesses(&trace, seed, 2000, [&] { return tags[3 + nextRandom(seed, 2)]; }, 3);
  addRandomAccesses(&trace, seed, 2000, [&] { return tags[nextRandom(seed, 5)]; }, 2);
  expectCachedMatchesExact(trace);
}

// A second thread that only reads a single user's page joins it as its
// reader: no line records are made for it, and what the mode ends with (the
// single user writing a line the reader holds, then everyone) is decided
// and counted as the exact path does.
TEST_F(SharingTest, AReaderOfASingleUsersPageCountsLikeTheExactPath) {
  std::vector<TraceAccess> trace;
  uint64_t seed = 777;
  addRandomAccesses(&trace, seed, 2000, [] { return 2u; }, 3);
  addRandomAccesses(&trace, seed, 2000, [] { return 3u; }, 0);  // the reader
  const size_t reader_phase_end = trace.size();
  // The single user reads anything; it writes only lines the reader left.
  for (int i = 0; i < 500; ++i) {
    uintptr_t offset = nextRandom(seed, 2) * kPageSize + (6 + nextRandom(seed, 10)) * kLineSize;
    trace.push_back({2, offset, 8, nextRandom(seed, 2) == 0});
    trace.push_back({2, nextRandom(seed, 2) * kPageSize + nextRandom(seed, 6) * kLineSize, 4,
                     false});
  }
  addRandomAccesses(&trace, seed, 300, [&seed] { return 2u + uint32_t(nextRandom(seed, 2)); }, 0);
  // Then the single user writes what the reader holds, and all four join.
  addRandomAccesses(&trace, seed, 200, [] { return 2u; }, 1);
  addRandomAccesses(&trace, seed, 6000, [&seed] { return uint32_t(1 + nextRandom(seed, 4)); }, 4);
  bool checked = false;
  // After the reader's phase the cached path's page is still the single
  // user's, with its reader, and no line record holds anything.
  expectCachedMatchesExact(trace, [&](PageDetail *d) {
    checked = true;
    EXPECT_EQ(d->sole_user.load(), 2u);
    EXPECT_EQ(d->reader.load(), 3u);
    EXPECT_NE(d->reader_lines.load(), 0u);
    // (Records of an earlier object's lines stay with the page, empty.)
    for (unsigned l = 0; l < kLinesPerPage; ++l)
      if (const LineShare *line = d->lines[l].load()) EXPECT_TRUE(line->holdsNone());
  }, reader_phase_end);
  EXPECT_TRUE(checked);
}

// A range hook's repeats count as that many accesses made in a row: the same
// remote count, invalidations and word detail as single accesses.
TEST_F(SharingTest, RepeatedAccessesCountLikeSingleOnes) {
  const uintptr_t other = base + 2 * kPageSize;
  PageDetail *d1 = detail;
  PageDetail *d2 = referenceDetail();
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
  PageDetail *de = referenceDetail();  // per element
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
  PageDetail *de = referenceDetail();  // line by line
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
    // 1 .. 64 bytes: wider elements cross lines and, at the end, the page.
    uint64_t size = uint64_t(1) << next(7);
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
    by_range += accesses;
    remote_range += remote;
    // The same elements as (line, words) pieces in order: an element that
    // crosses into the next line is one access to each line (one to its
    // first line if it is no wider than a word pair), clipped at the page's
    // end; the lead belongs to the page's first line. Then consecutive
    // pieces of one line as one access of their words, repeated.
    std::vector<std::pair<uintptr_t, uint16_t>> pieces;
    if (lead) pieces.push_back({other, lead});
    uint64_t want_spill = 0;
    for (uint64_t k = 0; k < taken; ++k) {
      const uintptr_t at = other + start + k * step;
      const uintptr_t offset = at & (kLineSize - 1);
      pieces.push_back({at & ~(kLineSize - 1), lineWordMask(at, uint32_t(size))});
      if ((at & (kPageSize - 1)) + size > kPageSize) {
        ASSERT_EQ(k + 1, taken);
        if (size > kSingleAccessBytes) want_spill = (at & (kPageSize - 1)) + size - kPageSize;
      } else if (offset + size > kLineSize && size > kSingleAccessBytes) {
        pieces.push_back({(at | (kLineSize - 1)) + 1,
                          lineWordMask(0, uint32_t(offset + size - kLineSize))});
      }
    }
    EXPECT_EQ(spill, want_spill);
    for (size_t p = 0; p < pieces.size();) {
      const uintptr_t line = pieces[p].first;
      uint16_t words = 0;
      uint64_t n = 0;
      for (; p < pieces.size() && pieces[p].first == line; ++p, ++n) words |= pieces[p].second;
      remote_line += countSharedAccess(lines, tag, de, line, words, write, true, 0x40, n);
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

// The reader's range hooks hold the lines and note the words its hooks per
// element would, and a range of the single user's writes over lines the
// reader holds ends the mode as its writes one by one would: the same
// invalidations, told true from false the same way.
TEST_F(SharingTest, AReadersRangesCountLikeTheirElements) {
  const uintptr_t other = base + 2 * kPageSize;
  PageDetail *dr = detail;  // by range hooks
  PageDetail *de = referenceDetail();  // element by element
  ASSERT_NE(de, nullptr);
  SharedPageCache user_r, user_e, reader_r, reader_e;
  const uint32_t user = 2, reader = 3;
  // The single user writes words 0-1 of lines 0..39.
  for (unsigned line = 0; line < 40; ++line) {
    countSharedAccess(user_r, user, dr, base + line * kLineSize, lineWordMask(0, 8), true, false, 0x1);
    countSharedAccess(user_e, user, de, other + line * kLineSize, lineWordMask(0, 8), true, false,
                      0x1);
  }
  // The reader reads words 2-3 of lines 10..29, and words 0-1 of lines 20..24.
  uint64_t accesses = 0, remote = 0, spill = 0;
  ASSERT_EQ(countRangeInSharedPage(reader_r, reader, dr, base + 10 * kLineSize + 8, kLineSize, 20,
                                   8, false, true, 0x2, 0, &accesses, &remote, &spill),
            20u);
  EXPECT_EQ(remote, 20u);
  ASSERT_EQ(countRangeInSharedPage(reader_r, reader, dr, base + 20 * kLineSize, kLineSize, 5, 8,
                                   false, true, 0x2, 0, &accesses, &remote, &spill),
            5u);
  for (unsigned line = 10; line < 30; ++line)
    countSharedAccess(reader_e, reader, de, other + line * kLineSize + 8, lineWordMask(8, 8), false,
                      true, 0x2);
  for (unsigned line = 20; line < 25; ++line)
    countSharedAccess(reader_e, reader, de, other + line * kLineSize, lineWordMask(0, 8), false,
                      true, 0x2);
  EXPECT_EQ(dr->reader.load(), reader);
  EXPECT_EQ(dr->sole_user.load(), user);
  EXPECT_EQ(dr->reader_lines.load(), de->reader_lines.load());
  for (unsigned l = 0; l < kLinesPerPage; ++l)
    EXPECT_EQ(dr->reader_noted[l].load(), de->reader_noted[l].load()) << "line " << l;
  // The single user writes lines 0..39 again: a range on one page, one by
  // one on the other.
  ASSERT_EQ(countRangeInSharedPage(user_r, user, dr, base, kLineSize, 40, 8, true, false, 0x1, 0,
                                   &accesses, &remote, &spill),
            40u);
  for (unsigned line = 0; line < 40; ++line)
    countSharedAccess(user_e, user, de, other + line * kLineSize, lineWordMask(0, 8), true, false,
                      0x1);
  EXPECT_EQ(dr->sole_user.load(), kManyUsers);
  for (SharedPageCache *c : {&user_r, &user_e}) flushSharedPageCache(*c, user, true);
  for (SharedPageCache *c : {&reader_r, &reader_e}) flushSharedPageCache(*c, reader, true);
  ObjectProfile got, want;
  expectSamePageCounts(dr, de, other, &got, &want);
  EXPECT_EQ(want.invalidations, 20u);  // the reader's copies of lines 10..29
  EXPECT_EQ(want.invalidations_true, 5u);  // lines 20..24: words both used
  EXPECT_EQ(got.invalidations, want.invalidations);
  EXPECT_EQ(got.invalidations_true, want.invalidations_true);
  EXPECT_EQ(got.invalidations_false, want.invalidations_false);
}

// A thread freeing a block hands over what it buffered for the block's pages
// (they are folded next), and keeps buffering the rest; a block of many
// pages flushes everything.
TEST_F(SharingTest, AFreedBlocksPagesAreFlushedAlone) {
  ThreadState t;
  t.owner_tag = 2;
  PageDetail *in = detail, *out = referenceDetail();
  ASSERT_NE(out, nullptr);
  for (int i = 0; i < 3; ++i)
    countSharedAccess(t.page_cache, 2, in, base, lineWordMask(0, 8), false, true, 0);
  for (int i = 0; i < 5; ++i)
    countSharedAccess(t.page_cache, 2, out, base + 2 * kPageSize, lineWordMask(0, 8), false, true,
                      0);
  flushThreadCountsIn(t, base + 64, base + 128);
  EXPECT_EQ(pageThreadAccesses(*in, 2), 3u);
  EXPECT_EQ(pageThreadAccesses(*out, 2), 0u);  // still in the thread's cache
  flushThreadCountsIn(t, base, base + 64 * kPageSize);
  EXPECT_EQ(pageThreadAccesses(*out, 2), 5u);
  flushSharedPageCache(t.page_cache, 2, true);
}

// Two scalars at the start of a line that a thread reads, and at its end an
// array whose two slots two threads keep writing (a global counter array
// placed after other globals): the line's invalidations and remote accesses
// belong to the array. Its threads wrote only its words, though it holds
// just half of the words they touched (a majority of touched words gave the
// line to the first scalar).
TEST_F(SharingTest, ALineGoesToTheObjectHoldingTheWordsItsThreadsWrite) {
  const uintptr_t a = base, b = base + 8, array = base + 48;
  uint64_t remote = 0;
  trackSharedAccess(1, detail, array, 8, true, false, 0);
  remote += trackSharedAccess(2, detail, a, 8, false, true, 0);
  remote += trackSharedAccess(2, detail, b, 8, false, true, 0);
  for (int i = 0; i < 10; ++i) {
    trackSharedAccess(1, detail, array, 8, false, false, 0);
    trackSharedAccess(1, detail, array, 8, true, false, 0);
    remote += trackSharedAccess(2, detail, array + 8, 8, false, true, 0);
    remote += trackSharedAccess(2, detail, array + 8, 8, true, true, 0);
  }
  ObjectProfile pa = fold(a, a + 8), pb = fold(b, b + 8), parray = fold(array, array + 16);
  EXPECT_EQ(pa.remote + pa.invalidations, 0u);
  EXPECT_EQ(pb.remote + pb.invalidations, 0u);
  EXPECT_EQ(parray.remote, remote);
  EXPECT_EQ(parray.invalidations, 20u);  // each thread's write takes the other's copy
  EXPECT_EQ(parray.invalidations_false, 20u);
}

// A page one thread uses alone since it became shared (single-user mode, no
// LineShares): the words noted for that thread say whose the line is, so
// the scalar it read once takes nothing of the array's remote accesses, and
// none is lost to the bytes between objects.
TEST_F(SharingTest, ASingleUsersNotedWordsDecideWhoseALineIs) {
  const uintptr_t scalar = base, array = base + 48;
  SharedPageCache cache;
  uint64_t remote = 0;
  remote += countSharedAccess(cache, 2, detail, array, lineWordMask(array, 8), true, true, 0);
  remote += countSharedAccess(cache, 2, detail, scalar, lineWordMask(scalar, 8), false, true, 0);
  for (int i = 0; i < 50; ++i)
    remote += countSharedAccess(cache, 2, detail, array, lineWordMask(array, 8), true, true, 0);
  flushSharedPageCache(cache, 2, true);
  ASSERT_EQ(detail->sole_user.load(), 2u);  // still in the mode
  EXPECT_EQ(remote, 52u);
  EXPECT_EQ(fold(scalar, scalar + 8).remote, 0u);
  EXPECT_EQ(fold(array, array + 16).remote, remote);
}
