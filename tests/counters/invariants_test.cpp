#include <gtest/gtest.h>

#include "counters/error.h"
#include "counters/invariants.h"

using namespace numaperf::counters;
using nlohmann::json;

namespace {

json doc(json invariants) {
  return {{"format", "numaperf-invariants"}, {"version", 1}, {"family", "t"}, {"invariants", invariants}};
}

std::string errorOf(const json& j) {
  try {
    parseFamily(j, "x.json");
  } catch (const CountersError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Invariants, TotalMinusPartsWithCoefficients) {
  Family f = parseFamily(doc({{{"name", "slots"}, {"total", {{"event", "cycles"}, {"coef", 4}}},
                               {"parts", {"A:B", "c.d"}}}}),
                         "x.json");
  ASSERT_EQ(f.invariants.size(), 1u);
  const auto& t = f.invariants[0].terms;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].event, "cycles");
  EXPECT_EQ(t[0].coef, 4);
  EXPECT_EQ(t[1].event, "a.b");  // libpfm spelling canonicalised
  EXPECT_EQ(t[1].coef, -1);
  LinearSystem sys = restrictTo(f.invariants, {"C.D", "Cycles", "a.b"});
  ASSERT_EQ(sys.size(), 1u);
  EXPECT_EQ(sys.rows[0], (std::vector<double>{-1, 4, -1}));
  EXPECT_DOUBLE_EQ(rowResidual(sys.rows[0], {5, 2, 3}), 0);
  EXPECT_DOUBLE_EQ(rowResidual(sys.rows[0], {5, 2, 4}), -1);
}

TEST(Invariants, DroppedWhenAnEventIsMissing) {
  Family f = parseFamily(doc({{{"name", "a"}, {"total", "t"}, {"parts", {"x", "y"}}},
                               {{"name", "b"}, {"total", "t"}, {"parts", {"x", "z"}}}}),
                         "x.json");
  LinearSystem sys = restrictTo(f.invariants, {"t", "x", "y"});
  ASSERT_EQ(sys.size(), 1u);
  EXPECT_EQ(sys.names[0], "a");
  auto nb = invariantNeighbours(sys, 3);
  EXPECT_EQ(nb[0].size(), 2u);
  EXPECT_EQ(nb[1].size(), 2u);
}

TEST(Invariants, MalformedFilesAreNamed) {
  EXPECT_NE(errorOf(json::array()).find("x.json: not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf({{"format", "other"}}).find("\"format\""), std::string::npos);
  EXPECT_NE(errorOf(doc({{{"name", "a"}, {"total", "t"}}})).find("invariant \"a\": needs"), std::string::npos);
  EXPECT_NE(errorOf(doc({{{"name", "a"}, {"total", "t"}, {"parts", {"t"}}}})).find("appears twice"), std::string::npos);
  EXPECT_NE(errorOf(doc({{{"name", "a"}, {"total", "t"}, {"parts", {{{"event", "x"}, {"coef", 0}}}}}}))
                .find("non-zero"),
            std::string::npos);
  EXPECT_NE(errorOf(doc({{{"name", "a"}, {"total", "t"}, {"parts", {"x"}}, {"tolerance", -1}}})).find("tolerance"),
            std::string::npos);
}

TEST(Invariants, ShippedFilesLoadAndSelectByCpu) {
  auto all = loadFamilyDir(NUMAPERF_INVARIANTS_DIR);
  ASSERT_GE(all.size(), 3u);
  for (const auto& f : all) EXPECT_FALSE(f.invariants.empty()) << f.origin;
  auto intel = familiesFor(all, "GenuineIntel", 6, 85);
  bool sw = false, skx = false, amd = false;
  for (const auto& f : intel) {
    sw |= f.name == "linux-software";
    skx |= f.name == "intel-skylake-server";
    amd |= f.name == "amd-zen3";
  }
  EXPECT_TRUE(sw && skx && !amd);
  auto zen = familiesFor(all, "AuthenticAMD", 25, 1);
  ASSERT_EQ(zen.size(), 2u);
  EXPECT_THROW(loadFamilyFile("/nonexistent/x.json"), CountersError);
  EXPECT_THROW(loadFamilyDir("/nonexistent"), CountersError);
}
