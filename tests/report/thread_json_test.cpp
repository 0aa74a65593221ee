// JSON of the thread part of a profile: top-level `threads` and `imbalance`.
#include "report/json_io.h"

#include <gtest/gtest.h>

using namespace numaperf::report;
using nlohmann::json;

namespace {

Profile threadProfile() {
  Profile p;
  p.program.command = {"./pipeline"};
  p.program.threads = 3;
  ThreadRecord main;
  main.index = 0;
  main.type = "main";
  main.accesses = 10;
  main.observed_migrations = 2;
  ThreadRecord a;
  a.index = 1;
  a.type = "stage_a";
  a.accesses = 900;
  a.contentions = 5;
  a.cond_waits = 7;
  a.barrier_waits = 1;
  a.sem_waits = 2;
  a.waits = 10;
  ThreadRecord b = a;
  b.index = 2;
  b.type = "stage_b";
  b.accesses = 100;
  p.threads = {main, a, b};
  Imbalance im;
  im.main_thread_accesses = 10;
  im.types = {{"stage_a", 1, 900, 0.9}, {"stage_b", 1, 100, 0.1}};
  im.ratio = 9;
  im.suggested_total = 2;
  im.suggested = {{"stage_a", 1}, {"stage_b", 1}};
  im.requested_total = 10;
  im.suggested_for_requested = {{"stage_a", 9}, {"stage_b", 1}};
  p.imbalance = im;
  return p;
}

}  // namespace

TEST(ThreadJson, Shape) {
  json j = toJson(threadProfile());
  ASSERT_TRUE(j["threads"].is_array());
  ASSERT_EQ(j["threads"].size(), 3u);
  EXPECT_EQ(j["threads"][0]["type"], "main");
  EXPECT_EQ(j["threads"][0]["observed_migrations"], 2);
  EXPECT_TRUE(j["threads"][1]["observed_migrations"].is_null());
  EXPECT_EQ(j["threads"][1]["contentions"], 5);
  EXPECT_EQ(j["threads"][1]["waits"], 10);
  EXPECT_EQ(j["imbalance"]["types"][0]["name"], "stage_a");
  EXPECT_DOUBLE_EQ(j["imbalance"]["types"][1]["share"].get<double>(), 0.1);
  EXPECT_EQ(j["imbalance"]["suggested"]["stage_a"], 1);
  EXPECT_EQ(j["imbalance"]["suggested_for_requested"]["stage_a"], 9);
  EXPECT_EQ(j["imbalance"]["requested_total"], 10);
}

TEST(ThreadJson, RoundTrip) {
  Profile p = threadProfile();
  std::string error;
  auto back = fromJson(toJson(p), &error);
  ASSERT_TRUE(back.has_value()) << error;
  ASSERT_EQ(back->threads.size(), 3u);
  EXPECT_EQ(back->threads[1].type, "stage_a");
  EXPECT_EQ(back->threads[1].cond_waits, 7u);
  EXPECT_EQ(back->threads[1].sem_waits, 2u);
  EXPECT_FALSE(back->threads[1].observed_migrations.has_value());
  EXPECT_EQ(back->threads[0].observed_migrations.value_or(0), 2u);
  ASSERT_TRUE(back->imbalance.has_value());
  EXPECT_EQ(back->imbalance->types.size(), 2u);
  EXPECT_DOUBLE_EQ(back->imbalance->ratio, 9.0);
  EXPECT_EQ(back->imbalance->main_thread_accesses, 10u);
  EXPECT_EQ(back->imbalance->suggested.size(), 2u);
  EXPECT_EQ(back->imbalance->requested_total, 10u);
  EXPECT_EQ(toJson(*back), toJson(p));
}

TEST(ThreadJson, OptionalInOlderFilesAndNull) {
  json j = toJson(threadProfile());
  j.erase("threads");
  j.erase("imbalance");
  std::string error;
  auto p = fromJson(j, &error);
  ASSERT_TRUE(p.has_value()) << error;
  EXPECT_TRUE(p->threads.empty());
  EXPECT_FALSE(p->imbalance.has_value());
  j["imbalance"] = nullptr;
  p = fromJson(j, &error);
  ASSERT_TRUE(p.has_value()) << error;
  EXPECT_FALSE(p->imbalance.has_value());
  EXPECT_TRUE(toJson(*p)["imbalance"].is_null());
}

TEST(ThreadJson, BadValuesNamed) {
  json j = toJson(threadProfile());
  j["threads"][1]["accesses"] = -3;
  std::string error;
  EXPECT_FALSE(fromJson(j, &error).has_value());
  EXPECT_NE(error.find("threads[1].accesses"), std::string::npos) << error;
  j = toJson(threadProfile());
  j["imbalance"]["types"][0].erase("name");
  EXPECT_FALSE(fromJson(j, &error).has_value());
  EXPECT_NE(error.find("imbalance.types[0].name"), std::string::npos) << error;
  j = toJson(threadProfile());
  j["imbalance"] = 3;
  EXPECT_FALSE(fromJson(j, &error).has_value());
  EXPECT_NE(error.find("imbalance"), std::string::npos) << error;
}
