#include "profile_loader.h"

#include "report/json_io.h"
#include "report/text_render.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using numaperf::cli::loadProfile;
using numaperf::cli::parseProfile;

namespace {

std::string minimal() {
  return R"({"schema_version":1,"program":{"command":["./a"],"pid":1,"wall_ms":1.5,"threads":2,
    "total_accesses":10,"access_data":true},"thresholds":{"remote_access":1500},"notes":[],
    "issues":[{"kind":"remote_access","score":2000,"normalized_score":3,"threshold":1500,
    "object":{"kind":"heap","name":null,"size":8,"instances":1,
    "site":{"file":"a.c","line":3,"function":"main"},"stack":[]},"fix":"page_interleave",
    "evidence":{"anything":{"goes":1}}}]})";
}

}  // namespace

TEST(ProfileLoader, ReadsAProfileWithoutNotes) {
  std::string err;
  auto p = parseProfile(minimal(), &err);
  ASSERT_TRUE(p) << err;
  EXPECT_EQ(p->profile.issues.size(), 1u);
  EXPECT_TRUE(p->unknown_fields.empty());
}

TEST(ProfileLoader, ListsUnknownFieldsButNotFreeFormOnes) {
  nlohmann::json j = nlohmann::json::parse(minimal());
  j["extra"] = 1;
  j["program"]["host"] = "x";
  j["issues"][0]["object"]["stack"] = {{{"pc", 1}, {"col", 2}}};
  j["issues"][0]["evidence"]["new"] = 1;
  j["thresholds"]["new_kind"] = 2;
  j["threads"] = nlohmann::json::array();
  auto p = parseProfile(j.dump(), nullptr);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->unknown_fields,
            (std::vector<std::string>{"extra", "issues[0].object.stack[0].col", "program.host"}));
}

TEST(ProfileLoader, ErrorsAreOneLineWithTheReason) {
  struct Case { std::string text, expect; };
  std::vector<Case> cases = {
      {"", "empty file"},
      {minimal().substr(0, 100), "invalid JSON"},
      {"[1]", "top level: expected an object"},
      {R"({"schema_version":2,"program":{},"issues":[]})", "unsupported version 2"},
      {R"({"schema_version":1,"program":{"threads":"4"},"issues":[]})", "program.threads"},
      {std::string(1000, '[') + std::string(1000, ']'), "nested deeper"},
  };
  for (const Case& c : cases) {
    std::string err;
    EXPECT_FALSE(parseProfile(c.text, &err));
    EXPECT_NE(err.find(c.expect), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

TEST(ProfileLoader, FileErrorsNameThePath) {
  std::string err;
  EXPECT_FALSE(loadProfile("/nonexistent/p.json", &err));
  EXPECT_EQ(err.rfind("/nonexistent/p.json: cannot open", 0), 0u) << err;
  EXPECT_FALSE(loadProfile("/", &err));
  EXPECT_NE(err.find("is a directory"), std::string::npos) << err;
  std::string big = testing::TempDir() + "/big.json";
  { std::ofstream f(big); }
  ASSERT_EQ(truncate(big.c_str(), static_cast<off_t>(numaperf::cli::kMaxProfileBytes) + 1), 0);
  EXPECT_FALSE(loadProfile(big, &err));
  EXPECT_NE(err.find("larger than"), std::string::npos) << err;
  std::remove(big.c_str());
}

TEST(ProfileLoader, TextOfALoadedProfileEqualsTheOriginalRendering) {
  auto p = parseProfile(minimal(), nullptr);
  ASSERT_TRUE(p);
  std::string json = numaperf::report::toJson(p->profile).dump(2);
  auto again = parseProfile(json, nullptr);
  ASSERT_TRUE(again);
  numaperf::report::TextOptions t;
  EXPECT_EQ(renderText(p->profile, t), renderText(again->profile, t));
}
