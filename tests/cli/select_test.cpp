// Unit tests of `numaperf select`'s choice (tools/numaperf/function_selection.h).
#include "function_selection.h"

#include <gtest/gtest.h>

using namespace numaperf;
using namespace numaperf::cli;

namespace {

report::InstrumentedFunction fn(const std::string& name, const std::string& demangled,
                                uint64_t calls, bool filtered = false) {
  report::InstrumentedFunction f;
  f.name = name;
  f.function = demangled;
  f.hooks = 1;
  f.entries = calls;
  f.hook_calls = calls;
  f.filtered = filtered;
  return f;
}

// One remote-access issue read in ns::reader(int) and allocated in main.
report::Profile profile() {
  report::Profile p;
  report::Issue issue;
  issue.kind = "remote_access";
  issue.object.site.function = "main";
  report::Frame frame;
  frame.location.function = "main";
  issue.object.stack.push_back(frame);
  issue.evidence["access_sites"] = nlohmann::json::array(
      {{{"file", "a.cpp"}, {"line", 3}, {"function", "ns::reader(int)"}, {"count", 10}}});
  p.issues.push_back(issue);
  report::Instrumentation in;
  in.functions = {fn("_ZN2ns3getEv", "ns::get()", 1000), fn("_ZN2ns6readerEi", "ns::reader(int)", 5000),
                  fn("main", "main", 10), fn("cold", "cold", 0), fn("_Z4hashv", "hash()", 300),
                  fn("old", "old", 0, /*filtered=*/true)};
  p.instrumentation = in;
  return p;
}

std::vector<std::string> names(const std::vector<SelectedFunction>& v) {
  std::vector<std::string> out;
  for (const auto& f : v) out.push_back(f.name);
  return out;
}

}  // namespace

TEST(Select, DropsCostliestKeepsIssueFunctions) {
  report::Profile p = profile();
  Selection s = selectFunctions(p, {});
  // Issue access site and allocation stack kept; never-called cold kept.
  EXPECT_EQ(names(s.dropped), (std::vector<std::string>{"_ZN2ns3getEv", "_Z4hashv"}));
  EXPECT_EQ(names(s.kept_for_issues), (std::vector<std::string>{"_ZN2ns6readerEi", "main"}));
  EXPECT_EQ(s.total_calls, 6310u);
  EXPECT_EQ(s.dropped_calls, 1300u);
  std::string text = renderFilter(s, "p.json");
  EXPECT_NE(text.find("\nfun:_ZN2ns3getEv\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nfun:old\n"), std::string::npos) << text;  // stays filtered
  EXPECT_EQ(text.find("fun:main"), std::string::npos) << text;
}

TEST(Select, BudgetStopsEarly) {
  report::Profile p = profile();
  SelectOptions o;
  o.budget = 5500;  // 6310 - 1000 = 5310 <= 5500 after the first drop
  Selection s = selectFunctions(p, o);
  EXPECT_EQ(names(s.dropped), (std::vector<std::string>{"_ZN2ns3getEv"}));
}

TEST(Select, NoKeepIssuesRanksEveryFunction) {
  report::Profile p = profile();
  SelectOptions o;
  o.keep_issue_functions = false;
  Selection s = selectFunctions(p, o);
  EXPECT_EQ(names(s.dropped).front(), "_ZN2ns6readerEi");
  EXPECT_TRUE(s.kept_for_issues.empty());
}

TEST(Select, KeepsFunctionsFirstRunByTheIssueObjectsFirstToucher) {
  report::Profile p = profile();
  // The issue's object was first touched by thread 0 (an init function it
  // ran first); ns::get() was first run by worker thread 2.
  report::BandwidthSignature sig;
  report::ObjectSignature o;
  o.object = p.issues[0].object;
  report::StaticToucherShare toucher;
  toucher.thread = 0;
  o.static_threads.push_back(toucher);
  sig.objects.push_back(o);
  p.signature = sig;
  p.instrumentation->functions.push_back(fn("init", "init", 2000));
  p.instrumentation->functions.back().first_thread = 0;
  p.instrumentation->functions[0].first_thread = 2;  // ns::get()
  Selection s = selectFunctions(p, {});
  EXPECT_EQ(names(s.dropped), (std::vector<std::string>{"_ZN2ns3getEv", "_Z4hashv"}));
  EXPECT_EQ(names(s.kept_for_first_touch), (std::vector<std::string>{"init"}));
  EXPECT_NE(renderFilter(s, "p.json").find("# kept, first run by a thread"), std::string::npos);
  // Without --keep-issues the rule is off too.
  SelectOptions o2;
  o2.keep_issue_functions = false;
  EXPECT_TRUE(selectFunctions(p, o2).kept_for_first_touch.empty());
}
