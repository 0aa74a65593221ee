#include "report/html_render.h"

#include <gtest/gtest.h>

using namespace numaperf::report;

namespace {

Profile sample() {
  Profile p;
  p.program.command = {"./app", "<x>"};
  p.program.total_accesses = 100;
  p.thresholds = {{"remote_access", 1500}};
  Issue i;
  i.kind = "remote_access";
  i.score = 30000;
  i.normalized_score = 5;
  i.threshold = 1500;
  i.object.kind = "heap";
  i.object.size = 1 << 20;
  i.object.site = {"/src/a&b.c", 4, "main"};
  i.fix = "page_interleave";
  i.evidence = {{"remote_accesses", 10}};
  p.issues = {i, i};
  p.notes = {"a note"};
  return p;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST(HtmlRender, SelfContainedPageWithIssuesChartAndNotes) {
  std::string html = renderHtml(sample(), HtmlOptions());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<article class=\"issue\""), 2u);
  EXPECT_NE(html.find("id=\"chart\""), std::string::npos);
  EXPECT_NE(html.find("a note"), std::string::npos);
  EXPECT_NE(html.find("/src/a&amp;b.c:4"), std::string::npos);
  EXPECT_NE(html.find("./app &lt;x&gt;"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST(HtmlRender, MissingDataIsNotDrawn) {
  Profile p = sample();
  std::string html = renderHtml(p, HtmlOptions());
  EXPECT_EQ(html.find("class=\"pagemap\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"imbalance\""), std::string::npos);
  p.issues.clear();
  html = renderHtml(p, HtmlOptions());
  EXPECT_EQ(html.find("id=\"chart\""), std::string::npos);
  EXPECT_NE(html.find("No NUMA issues"), std::string::npos);
}

TEST(HtmlRender, PageMapsFromEitherEvidenceShape) {
  Profile p = sample();
  p.issues[0].evidence["page_threads"] = {{{"pages", "0-9"}, {"thread", 1}},
                                          {{"pages", "10"}, {"thread", nullptr}},
                                          {{"pages", "11-19"}, {"thread", 2}}};
  p.issues[1].evidence["pages"] = {{"threads", {0, 1}}, {"counts", {{1, 0}, {0, 2}, {3, 3}}}};
  std::string html = renderHtml(p, HtmlOptions());
  EXPECT_EQ(count(html, "class=\"pagemap\""), 2u);
  EXPECT_EQ(count(html, "class=\"cell\""), 20u * 3 + 3u * 2);
  // Malformed page data is skipped, not fatal.
  p.issues[0].evidence["page_threads"] = {{{"pages", "9-2"}}};
  p.issues[1].evidence["pages"] = "many";
  html = renderHtml(p, HtmlOptions());
  EXPECT_EQ(count(html, "class=\"pagemap\""), 0u);
  EXPECT_EQ(count(html, "<article"), 2u);
}

TEST(HtmlRender, ThreadTypeSharesFromTheRawDocument) {
  nlohmann::json raw = {{"imbalance", {{"types", {{{"name", "reader"}, {"share", 0.75}},
                                                  {{"name", "writer"}, {"share", 0.25}}}}}}};
  HtmlOptions o;
  o.raw = &raw;
  std::string html = renderHtml(sample(), o);
  EXPECT_NE(html.find("id=\"imbalance\""), std::string::npos);
  EXPECT_NE(html.find("reader</td><td>75.0%"), std::string::npos);
  raw["imbalance"] = nullptr;
  EXPECT_EQ(renderHtml(sample(), o).find("id=\"imbalance\""), std::string::npos);
}

TEST(HtmlRender, TopLimitsIssues) {
  HtmlOptions o;
  o.top = 1;
  std::string html = renderHtml(sample(), o);
  EXPECT_EQ(count(html, "<article"), 1u);
  EXPECT_NE(html.find("showing the top 1"), std::string::npos);
}
