#include "report/compare.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace numaperf::report;

namespace {

Issue heap(const std::string& file, uint32_t line, const std::string& fn, double normalized,
           double score = 2000, const std::string& kind = "remote_access") {
  Issue i;
  i.kind = kind;
  i.score = score;
  i.normalized_score = normalized;
  i.threshold = 1500;
  i.object.kind = "heap";
  i.object.site = {file, line, fn};
  return i;
}

Issue global(const std::string& name, const std::string& file, double normalized) {
  Issue i = heap(file, 3, "", normalized);
  i.object.kind = "global";
  i.object.name = name;
  return i;
}

Profile prof(std::vector<Issue> issues) {
  Profile p;
  p.program.total_accesses = 1000;
  p.issues = std::move(issues);
  return p;
}

Comparison run(const Profile& a, const Profile& b, CompareOptions o = {}) {
  Comparison c;
  std::string err;
  EXPECT_TRUE(compareProfiles(a, b, o, &c, &err)) << err;
  return c;
}

const IssueChange* find(const Comparison& c, ChangeStatus s) {
  for (const auto& ch : c.changes)
    if (ch.status == s) return &ch;
  return nullptr;
}

}  // namespace

TEST(Compare, IdenticalProfilesAreUnchanged) {
  Profile p = prof({heap("/a/x.c", 1, "f", 10), global("g", "/a/y.c", 5)});
  Comparison c = run(p, p);
  EXPECT_EQ(c.count(ChangeStatus::kUnchanged), 2u);
  EXPECT_FALSE(c.failed(CompareOptions()));
}

TEST(Compare, MatchesByIdentityNotOrderOrAddress) {
  Profile a = prof({heap("/a/x.c", 1, "f", 10), heap("/a/x.c", 2, "f", 20)});
  Profile b = prof({heap("/a/x.c", 2, "f", 20), heap("/a/x.c", 1, "f", 10)});
  b.issues[0].object.stack.push_back({0xdead, "m", 1, {}});
  Comparison c = run(a, b);
  EXPECT_EQ(c.count(ChangeStatus::kUnchanged), 2u);
  for (const auto& ch : c.changes) EXPECT_NE(ch.baseline_index, ch.current_index);
}

TEST(Compare, ToleranceIsTheLargerOfRelativeAndAbsolute) {
  Profile a = prof({heap("/a/x.c", 1, "f", 100)});
  Profile b = prof({heap("/a/x.c", 1, "f", 115)});
  CompareOptions o;  // 10%: +15 regresses
  EXPECT_EQ(run(a, b, o).count(ChangeStatus::kRegressed), 1u);
  o.tolerance.relative = 0.2;
  EXPECT_EQ(run(a, b, o).count(ChangeStatus::kUnchanged), 1u);
  o.tolerance = {0.0, 20.0};
  EXPECT_EQ(run(a, b, o).count(ChangeStatus::kUnchanged), 1u);
  o.tolerance = {0.0, 10.0};
  const Comparison c = run(a, b, o);
  ASSERT_NE(find(c, ChangeStatus::kRegressed), nullptr);
  EXPECT_DOUBLE_EQ(find(c, ChangeStatus::kRegressed)->allowed, 10.0);
}

TEST(Compare, PerKindTolerance) {
  Profile a = prof({heap("/a/x.c", 1, "f", 100), heap("/a/x.c", 2, "f", 100, 5, "false_sharing")});
  Profile b = prof({heap("/a/x.c", 1, "f", 150), heap("/a/x.c", 2, "f", 150, 5, "false_sharing")});
  CompareOptions o;
  o.by_kind["remote_access"] = {0.6, 0};
  Comparison c = run(a, b, o);
  ASSERT_EQ(c.count(ChangeStatus::kRegressed), 1u);
  EXPECT_EQ(find(c, ChangeStatus::kRegressed)->kind, "false_sharing");
}

TEST(Compare, ImprovedNewFixed) {
  Profile a = prof({heap("/a/x.c", 1, "f", 100), heap("/a/x.c", 9, "gone", 7)});
  Profile b = prof({heap("/a/x.c", 1, "f", 10), heap("/a/z.c", 4, "fresh", 3)});
  Comparison c = run(a, b);
  EXPECT_EQ(c.count(ChangeStatus::kImproved), 1u);
  EXPECT_EQ(c.count(ChangeStatus::kNew), 1u);
  EXPECT_EQ(c.count(ChangeStatus::kFixed), 1u);
  EXPECT_TRUE(c.failed(CompareOptions()));
  CompareOptions allow;
  allow.fail_on_new = false;
  EXPECT_FALSE(c.failed(allow));
  // Groups in order: new before improved before fixed.
  EXPECT_EQ(c.changes[0].status, ChangeStatus::kNew);
  EXPECT_EQ(c.changes.back().status, ChangeStatus::kFixed);
  EXPECT_EQ(c.changes.back().current_index, -1);
}

TEST(Compare, OtherCheckoutAndEditedLinesStillMatch) {
  Profile a = prof({heap("/home/me/proj/src/x.c", 10, "f", 100), global("g", "/home/me/proj/g.c", 5)});
  Profile b = prof({heap("/builds/proj/src/x.c", 12, "f", 100), global("g", "/ci/proj/g.c", 5)});
  Comparison c = run(a, b);
  EXPECT_EQ(c.count(ChangeStatus::kUnchanged), 2u);
  bool moved = false;
  for (const auto& ch : c.changes) moved |= ch.match_note == "site moved from line 10 to 12";
  EXPECT_TRUE(moved);
}

TEST(Compare, AmbiguousLooseMatchesAreNotGuessed) {
  // Two sites in the same function whose lines both changed: not paired.
  Profile a = prof({heap("/a/x.c", 10, "f", 100), heap("/a/x.c", 20, "f", 1)});
  Profile b = prof({heap("/a/x.c", 11, "f", 1), heap("/a/x.c", 21, "f", 100)});
  Comparison c = run(a, b);
  EXPECT_EQ(c.count(ChangeStatus::kNew), 2u);
  EXPECT_EQ(c.count(ChangeStatus::kFixed), 2u);
}

TEST(Compare, GlobalsMatchByName) {
  Profile a = prof({global("counter", "/a/g.c", 10)});
  Profile b = prof({global("other", "/a/g.c", 10)});
  Comparison c = run(a, b);
  EXPECT_EQ(c.count(ChangeStatus::kNew), 1u);
  EXPECT_EQ(c.count(ChangeStatus::kFixed), 1u);
}

TEST(Compare, ScoreMetric) {
  Profile a = prof({heap("/a/x.c", 1, "f", 100, 1000)});
  Profile b = prof({heap("/a/x.c", 1, "f", 100, 2000)});
  CompareOptions o;
  EXPECT_EQ(run(a, b, o).count(ChangeStatus::kUnchanged), 1u);
  o.metric = Metric::kScore;
  EXPECT_EQ(run(a, b, o).count(ChangeStatus::kRegressed), 1u);
}

TEST(Compare, RefusesWhatCannotBeCompared) {
  Profile a = prof({heap("/a/x.c", 1, "f", 100)});
  Profile none = prof({});
  none.program.access_data = false;
  Comparison c;
  std::string err;
  EXPECT_FALSE(compareProfiles(none, a, CompareOptions(), &c, &err));
  EXPECT_NE(err.find("baseline has no access data"), std::string::npos) << err;
  Profile nan = prof({heap("/a/x.c", 1, "f", std::nan(""))});
  EXPECT_FALSE(compareProfiles(a, nan, CompareOptions(), &c, &err));
  EXPECT_NE(err.find("current issues[0].normalized_score"), std::string::npos) << err;
}

TEST(Compare, ThresholdChangeIsWarned) {
  Profile a = prof({});
  Profile b = prof({});
  a.thresholds = {{"remote_access", 1500}};
  b.thresholds = {{"remote_access", 3000}};
  Comparison c = run(a, b);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("remote_access threshold differs"), std::string::npos);
}

TEST(Compare, DescribeObject) {
  EXPECT_EQ(describeObject(heap("/a/x.c", 3, "main", 1).object), "heap allocated at /a/x.c:3 in main");
  EXPECT_EQ(describeObject(global("g", "/a/g.c", 1).object), "global 'g' (/a/g.c:3)");
  EXPECT_EQ(describeObject(ObjectInfo{}), "(no object)");
}
