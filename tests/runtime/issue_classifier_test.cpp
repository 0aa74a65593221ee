#include "analysis/issue_classifier.h"

#include <gtest/gtest.h>

#include <vector>

using namespace numaperf;

namespace {

// An object of 64 pages whose remote accesses all fall in pages dominated by
// sharing: `invalidations` over `lines` lines in `ms` milliseconds.
struct SharingPagesTest : ::testing::Test {
  std::vector<report::Issue> classify(uint64_t invalidations, uint64_t lines, double hot_rate) {
    ObjectProfile p;
    p.remote = 1000000;
    p.remote_in_sharing_pages = p.remote;
    p.invalidations = p.invalidations_true = invalidations;
    p.sharing_page_invalidations = invalidations;
    p.sharing_page_lines = lines;
    report::ObjectInfo object;
    object.kind = "heap";
    object.size = 64 * 4096;
    ScoringContext c;
    c.wall_ms = 1000;
    c.total_accesses = 10 * p.remote;
    c.total_remote = p.remote;
    c.threads = 4;
    c.remote_threshold = 100;
    c.false_sharing_threshold = c.true_sharing_threshold = 1e12;  // only remote_access here
    c.sharing_hot_rate = hot_rate;
    std::vector<report::Issue> issues;
    classifyObject(object, p, c, &issues);
    return issues;
  }
};

}  // namespace

// Lines fought over at least the hot rate: their remote accesses are
// coherence traffic, not a placement problem.
TEST_F(SharingPagesTest, DenselySharedPagesAreNotRemoteAccess) {
  // 4096 lines, each invalidated twice per ms over a second.
  EXPECT_TRUE(classify(2 * 4096 * 1000, 4096, 1.0).empty());
}

// Lines that change hands rarely (a big table written at random by every
// thread) are fetched from their page's node: remote access, all of it.
TEST_F(SharingPagesTest, SparselySharedPagesAreRemoteAccess) {
  // 4096 lines, 20 invalidations each over a second.
  std::vector<report::Issue> issues = classify(20 * 4096, 4096, 1.0);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].kind, "remote_access");
  EXPECT_EQ(issues[0].evidence["remote_accesses"].get<uint64_t>(), 1000000u);
  EXPECT_DOUBLE_EQ(issues[0].evidence["sharing_pages_invalidation_rate"].get<double>(), 0.02);
  // A hot rate of 0 counts every page dominated by sharing as coherence.
  EXPECT_TRUE(classify(20 * 4096, 4096, 0).empty());
}
