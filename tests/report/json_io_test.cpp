#include "report/json_io.h"

#include "sample_profile.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace numaperf::report;
using nlohmann::json;

namespace {

json sampleJson() { return toJson(sampleProfile()); }

std::string errorOf(const json& j) {
  std::string error;
  auto p = fromJson(j, &error);
  EXPECT_FALSE(p.has_value());
  return error;
}

}  // namespace

TEST(JsonIo, ShapeIsStable) {
  json j = sampleJson();
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["program"]["command"][0], "./lulesh");
  EXPECT_EQ(j["program"]["pid"], 4242);
  EXPECT_EQ(j["program"]["wall_ms"], 1234.5);
  EXPECT_EQ(j["program"]["threads"], 8);
  EXPECT_EQ(j["program"]["total_accesses"], 123456789);
  EXPECT_EQ(j["program"]["access_data"], true);
  EXPECT_EQ(j["thresholds"]["remote_access"], 1500);
  EXPECT_EQ(j["notes"].size(), 2u);
  const json& i = j["issues"][0];
  EXPECT_EQ(i["kind"], "remote_access");
  EXPECT_EQ(i["score"], 4496.04);
  EXPECT_EQ(i["normalized_score"], 123.44);
  EXPECT_EQ(i["threshold"], 1500.0);
  EXPECT_EQ(i["object"]["kind"], "heap");
  EXPECT_TRUE(i["object"]["name"].is_null());
  EXPECT_EQ(i["object"]["size"], 8388608);
  EXPECT_EQ(i["object"]["instances"], 3);
  EXPECT_EQ(i["object"]["site"]["file"], "/src/lulesh/lulesh.cc");
  EXPECT_EQ(i["object"]["site"]["line"], 2105);
  EXPECT_EQ(i["object"]["site"]["function"], "Domain::AllocateNodal(int)");
  const json& f = i["object"]["stack"][0];
  EXPECT_EQ(f["pc"], 0x55d0c0a01234u);
  EXPECT_EQ(f["module"], "/src/lulesh/build/lulesh");
  EXPECT_EQ(f["offset"], 0x1234);
  EXPECT_EQ(f["file"], "/src/lulesh/lulesh.cc");
  EXPECT_EQ(f["line"], 2105);
  EXPECT_EQ(f["function"], "Domain::AllocateNodal(int)");
  EXPECT_EQ(i["fix"], "page_interleave");
  EXPECT_EQ(i["evidence"]["remote_accesses"], 5549000);
  EXPECT_EQ(j["issues"][1]["object"]["name"], "counters");
}

TEST(JsonIo, RoundTripIsExact) {
  json first = sampleJson();
  std::string text = first.dump(2);
  std::string error;
  auto back = fromJson(json::parse(text), &error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_EQ(error, "");
  json second = toJson(*back);
  EXPECT_EQ(first, second);
  EXPECT_EQ(text, second.dump(2));
  // Model-level spot checks.
  EXPECT_EQ(back->issues.size(), 3u);
  EXPECT_EQ(back->issues[0].object.stack.size(), 5u);
  EXPECT_FALSE(back->issues[0].object.name.has_value());
  EXPECT_EQ(*back->issues[1].object.name, "counters");
  EXPECT_EQ(back->issues[0].score, 4496.04);
  EXPECT_EQ(back->program.command, sampleProfile().program.command);
}

TEST(JsonIo, RoundTripAwkwardDoubles) {
  Profile p;
  p.program.wall_ms = 0.1 + 0.2;
  Issue i;
  i.kind = "remote_access";
  i.object.kind = "heap";
  i.score = 1e-300;
  i.normalized_score = 123456789.123456789;
  i.threshold = std::nan("");
  p.issues.push_back(i);
  json j = toJson(p);
  EXPECT_TRUE(j["issues"][0]["threshold"].is_null());
  std::string error;
  auto back = fromJsonText(j.dump(), &error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_EQ(back->program.wall_ms, 0.1 + 0.2);
  EXPECT_EQ(back->issues[0].score, 1e-300);
  EXPECT_EQ(back->issues[0].normalized_score, 123456789.123456789);
  EXPECT_TRUE(std::isnan(back->issues[0].threshold));
  EXPECT_EQ(toJson(*back), j);
}

TEST(JsonIo, EmptyProfileRoundTrips) {
  Profile p;
  std::string error;
  auto back = fromJson(toJson(p), &error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_TRUE(back->issues.empty());
  EXPECT_EQ(toJson(*back), toJson(p));
}

TEST(JsonIo, MissingSchemaVersion) {
  json j = sampleJson();
  j.erase("schema_version");
  EXPECT_EQ(errorOf(j), "schema_version: missing required field");
}

TEST(JsonIo, UnsupportedSchemaVersion) {
  json j = sampleJson();
  j["schema_version"] = 2;
  std::string e = errorOf(j);
  EXPECT_NE(e.find("schema_version"), std::string::npos) << e;
  EXPECT_NE(e.find("unsupported version 2"), std::string::npos) << e;
}

TEST(JsonIo, SchemaVersionWrongType) {
  json j = sampleJson();
  j["schema_version"] = "1";
  EXPECT_EQ(errorOf(j), "schema_version: expected an integer, got string");
}

TEST(JsonIo, ScoreWrongType) {
  json j = sampleJson();
  j["issues"][1]["score"] = "high";
  EXPECT_EQ(errorOf(j), "issues[1].score: expected a number, got string");
}

TEST(JsonIo, IssuesNotAnArray) {
  json j = sampleJson();
  j["issues"] = json::object();
  EXPECT_EQ(errorOf(j), "issues: expected an array, got object");
}

TEST(JsonIo, IssuesMissing) {
  json j = sampleJson();
  j.erase("issues");
  EXPECT_EQ(errorOf(j), "issues: missing required field");
}

TEST(JsonIo, NestedWrongTypesNameTheField) {
  {
    json j = sampleJson();
    j["issues"][0]["object"]["stack"][2]["line"] = -3;
    EXPECT_EQ(errorOf(j),
              "issues[0].object.stack[2].line: expected a non-negative integer, got -3");
  }
  {
    json j = sampleJson();
    j["issues"][0]["object"]["site"]["file"] = 7;
    EXPECT_EQ(errorOf(j), "issues[0].object.site.file: expected a string, got integer");
  }
  {
    json j = sampleJson();
    j["issues"][0]["object"]["name"] = 7;
    EXPECT_EQ(errorOf(j), "issues[0].object.name: expected a string or null, got integer");
  }
  {
    json j = sampleJson();
    j["program"]["command"][1] = 30;
    EXPECT_EQ(errorOf(j), "program.command[1]: expected a string, got integer");
  }
  {
    json j = sampleJson();
    j["program"]["threads"] = 2.5;
    EXPECT_EQ(errorOf(j), "program.threads: expected a non-negative integer, got float");
  }
  {
    json j = sampleJson();
    j["issues"][0]["evidence"] = json::array();
    EXPECT_EQ(errorOf(j), "issues[0].evidence: expected an object, got array");
  }
  {
    json j = sampleJson();
    j["issues"][2] = "oops";
    EXPECT_EQ(errorOf(j), "issues[2]: expected an object, got string");
  }
  {
    json j = sampleJson();
    j["issues"][0].erase("kind");
    EXPECT_EQ(errorOf(j), "issues[0].kind: missing required field");
  }
  {
    json j = sampleJson();
    j["program"]["access_data"] = 1;
    EXPECT_EQ(errorOf(j), "program.access_data: expected a boolean, got integer");
  }
  EXPECT_EQ(errorOf(json::array()), "top level: expected an object, got array");
}

TEST(JsonIo, UnknownFieldsIgnored) {
  json j = sampleJson();
  j["future_top_level"] = {{"x", 1}};
  j["program"]["hostname"] = "node17";
  j["issues"][0]["future_field"] = json::array({1, 2});
  j["issues"][0]["object"]["stack"][0]["inlined"] = true;
  std::string error;
  auto p = fromJson(j, &error);
  ASSERT_TRUE(p.has_value()) << error;
  EXPECT_EQ(toJson(*p), sampleJson());
}

TEST(JsonIo, InvalidJsonText) {
  std::string error;
  EXPECT_FALSE(fromJsonText("{\"schema_version\": 1,", &error).has_value());
  EXPECT_EQ(error.rfind("invalid JSON:", 0), 0u) << error;
}

TEST(JsonIo, NullErrorPointerIsAllowed) {
  EXPECT_FALSE(fromJson(json::object(), nullptr).has_value());
}
