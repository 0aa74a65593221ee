#include "report/text_render.h"

#include "report/fix_text.h"
#include "report/json_io.h"
#include "report/number_format.h"
#include "report/text_layout.h"
#include "sample_profile.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace numaperf::report;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// FileCheck-like: each needle must appear, in order, each on some line.
void expectInOrder(const std::string& text, const std::vector<std::string>& needles) {
  size_t pos = 0;
  for (const std::string& n : needles) {
    size_t at = text.find(n, pos);
    ASSERT_NE(at, std::string::npos) << "missing (in order): '" << n << "'\n--- text ---\n" << text;
    pos = at + n.size();
    if (n.back() == '\n') --pos;  // the next needle may start with that newline
  }
}

bool hasLine(const std::string& text, const std::string& line) {
  for (const std::string& l : lines(text))
    if (l == line) return true;
  return false;
}

}  // namespace

TEST(TextRender, HeaderFields) {
  std::string t = renderText(sampleProfile(), TextOptions{});
  expectInOrder(t, {"numaperf NUMA report\n",
                    "command:    ./lulesh -s 30 'two words'\n",
                    "pid:        4242\n",
                    "run time:   1234.5 ms\n",
                    "threads:    8\n",
                    "accesses:   123456789 instrumented\n",
                    "thresholds: duplicatable 5000, false_sharing 1, remote_access 1500\n",
                    "3 issues above threshold, most serious first\n"});
}

TEST(TextRender, ProfiledPeriodsAndHowTheyWereSwitched) {
  Profile p = sampleProfile();
  Instrumentation in;
  in.always_on = false;
  in.initially_on = false;
  in.active_regions = {"solve", "io"};
  in.toggle_signal = "SIGUSR2";
  in.profiled_ms = 200;
  in.periods = {{10, 110}, {300, 400}};
  p.instrumentation = in;
  std::string t = renderText(p, TextOptions{});
  expectInOrder(t, {"profiled:   200.0 of 1234.5 ms in 2 periods (10.0-110.0, 300.0-400.0 ms)\n",
                    "switched:   started off (NUMAPERF_ACTIVE=0); on inside regions solve, io; "
                    "toggled by SIGUSR2\n"});
  // Profiled all along: neither line.
  in.always_on = true;
  p.instrumentation = in;
  t = renderText(p, TextOptions{});
  EXPECT_EQ(t.find("profiled:"), std::string::npos);
  EXPECT_EQ(t.find("switched:"), std::string::npos);
}

TEST(TextRender, IssueBlocks) {
  std::string t = renderText(sampleProfile(), TextOptions{});
  EXPECT_TRUE(hasLine(t, "#1 remote access  score 4496.0 /ms (threshold 1500)  normalized 123.4 "
                         "per 1000 accesses"))
      << t;
  expectInOrder(t, {
      "\n   object: heap, 3 instances, largest 8388608 bytes (8.0 MiB)\n",
      "\n   allocated at /src/lulesh/lulesh.cc:2105 in Domain::AllocateNodal(int)\n",
      "\n   stack:\n",
      "\n     #0 Domain::AllocateNodal(int) at /src/lulesh/lulesh.cc:2105\n",
      "\n     #1 Domain::Domain(int, int, int) at /src/lulesh/lulesh-init.cc:311\n",
      "\n     #2 main at /src/lulesh/lulesh.cc:2700\n",
      "\n     #3 __libc_start_main (/usr/lib/x86_64-linux-gnu/libc.so.6+0x27249)\n",
      "\n     #4 0x7f0000002000\n",
      "\n   evidence:\n",
      "\n     dominant:\n       share: 0.75\n       thread: 1\n",
      "\n     nodes: [0, 1]\n",
      "\n     pages:\n       page 1, threads [1, 2]\n       page 2, threads [3]\n",
      "\n     remote_accesses: 5549000\n",
      "\n   fix: Interleave the object's pages across nodes (numa_alloc_interleaved or mbind "
      "MPOL_INTERLEAVE)\n",
      "\n#2 false sharing  score 12.5 /ms (threshold 1)  normalized 0.2 per 1000 accesses\n",
      "\n   object: global 'counters', 64 bytes\n",
      "\n   defined at /src/app/counters.c:12\n",
      "\n   fix: Pad/align the contended fields to separate cache lines\n",
      "\n#3 thread migration  score 150.0 /s (threshold 100)",
      "\n   fix: rebalance_stages_somehow\n",  // unknown code printed as-is
      "\nnotes:\n  - sampling: 1 in 101 accesses feeds page counters\n",
  });
  // A thread issue without an object has no object/site lines.
  std::string third = t.substr(t.find("#3 thread migration"));
  EXPECT_EQ(third.find("object:"), std::string::npos);
  EXPECT_EQ(third.find("allocated"), std::string::npos);
}

TEST(TextRender, NoIssues) {
  Profile p = sampleProfile();
  p.issues.clear();
  std::string t = renderText(p, TextOptions{});
  EXPECT_TRUE(hasLine(t, "no NUMA issues above threshold")) << t;
  EXPECT_EQ(t.find("#1"), std::string::npos);
  EXPECT_NE(t.find("notes:"), std::string::npos);
}

TEST(TextRender, NoAccessData) {
  Profile p;
  p.program.access_data = false;
  std::string t = renderText(p, TextOptions{});
  EXPECT_TRUE(hasLine(t, "accesses:   none (no instrumented code ran)")) << t;
  EXPECT_TRUE(hasLine(t, "command:    (unknown)")) << t;
  EXPECT_TRUE(hasLine(t, "thresholds: (none recorded)")) << t;
  EXPECT_TRUE(hasLine(t, "no NUMA issues above threshold")) << t;
  EXPECT_EQ(t.find("notes:"), std::string::npos);
}

TEST(TextRender, LinesFitIn100ColumnsAndPathsShortenFromTheLeft) {
  Profile p = sampleProfile();
  const std::string long_dir(120, 'd');
  p.issues[0].object.site.file = "/" + long_dir + "/src/alloc_site.cc";
  p.issues[0].object.stack[1].location.file = "/build/" + long_dir + "/lulesh-init.cc";
  p.issues[0].object.stack[2].location.function = std::string(150, 'f');
  p.program.command.push_back(std::string(200, 'a'));
  p.notes.push_back(std::string(30, 'w') + " " + std::string(80, 'x') + " end of a long note");
  p.issues[1].evidence["comment"] = std::string(60, 'c') + " " + std::string(60, 'e');
  p.issues[1].evidence["samples"] = std::vector<int>(200, 7);
  std::string t = renderText(p, TextOptions{});
  for (const std::string& l : lines(t)) EXPECT_LE(l.size(), 100u) << "'" << l << "'";
  expectInOrder(t, {
      "\n   allocated at ...ddd",
      "d/src/alloc_site.cc:2105 in Domain::AllocateNodal(int)\n",
      "\n     #1 Domain::Domain(int, int, int) at ...",
      "/lulesh-init.cc:311\n",
      "\n     #2 ffffffff",
  });
  // Shortened lines use the full width.
  for (const std::string& l : lines(t)) {
    if (l.find("Domain::Domain") != std::string::npos || l.find("allocated at") == 3) {
      EXPECT_EQ(l.size(), 100u) << l;
    }
  }
  // Overlong command is cut with "...".
  EXPECT_TRUE(t.find("aaaa...\n") != std::string::npos) << t;
  // The note wraps with a hanging indent; nothing is lost.
  expectInOrder(t, {"\n  - " + std::string(30, 'w') + "\n", "\n    " + std::string(80, 'x'),
                    " end of a long\n    note\n"});
  // Long scalar arrays show the count.
  EXPECT_NE(t.find(", ... (200 items)]"), std::string::npos) << t;
}

TEST(TextRender, ColourOffByDefault) {
  TextOptions def;
  EXPECT_FALSE(def.color);
  EXPECT_EQ(def.top, 0u);
  EXPECT_EQ(def.width, 100u);
  std::string plain = renderText(sampleProfile(), def);
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  TextOptions col;
  col.color = true;
  std::string coloured = renderText(sampleProfile(), col);
  EXPECT_NE(coloured.find("\x1b[1;31m#1 remote access\x1b[0m  score 4496.0"), std::string::npos);
  EXPECT_NE(coloured.find("\x1b[32m   fix: \x1b[0mInterleave"), std::string::npos);
}

TEST(TextRender, TopAndMaxFrames) {
  TextOptions o;
  o.top = 1;
  o.max_frames = 2;
  std::string t = renderText(sampleProfile(), o);
  EXPECT_NE(t.find("3 issues above threshold, most serious first (showing the top 1)"),
            std::string::npos);
  EXPECT_NE(t.find("#1 remote access"), std::string::npos);
  EXPECT_EQ(t.find("#2 false sharing"), std::string::npos);
  EXPECT_NE(t.find("\n... 2 more issues not shown\n"), std::string::npos) << t;
  EXPECT_NE(t.find("#1 Domain::Domain"), std::string::npos);
  EXPECT_EQ(t.find("#2 main"), std::string::npos);
  EXPECT_NE(t.find("\n     ... 3 more frames\n"), std::string::npos) << t;
}

TEST(TextRender, RerenderingSavedJsonIsIdentical) {
  Profile p = sampleProfile();
  std::string at_exit = renderText(p, TextOptions{});
  std::string error;
  auto saved = fromJsonText(toJson(p).dump(), &error);
  ASSERT_TRUE(saved.has_value()) << error;
  EXPECT_EQ(renderText(*saved, TextOptions{}), at_exit);
}

// Tries the installed de_DE locale, else compiles one with localedef into a
// temporary LOCPATH. Returns false if no comma-decimal locale is available.
static bool setCommaDecimalLocale() {
  if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr) return true;
  char tmpl[] = "/tmp/numaperf_locale_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return false;
  std::string dir = tmpl;
  std::string cmd = "localedef -i de_DE -f UTF-8 " + dir + "/de_DE.UTF-8 >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return false;
  setenv("LOCPATH", dir.c_str(), 1);
  bool ok = std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr;
  std::system(("rm -rf " + dir).c_str());  // the locale data is loaded by now
  return ok;
}

TEST(TextRender, IndependentOfLocale) {
  std::string before = renderText(sampleProfile(), TextOptions{});
  if (!setCommaDecimalLocale()) GTEST_SKIP() << "no comma-decimal locale available";
  char probe[16];
  std::snprintf(probe, sizeof probe, "%.1f", 1.5);
  std::string after = renderText(sampleProfile(), TextOptions{});
  std::setlocale(LC_NUMERIC, "C");
  unsetenv("LOCPATH");
  EXPECT_STREQ(probe, "1,5");  // the locale really is active
  EXPECT_EQ(before, after);
}

TEST(FixText, KnownAndUnknownCodes) {
  EXPECT_EQ(fixSentence("page_interleave"),
            "Interleave the object's pages across nodes (numa_alloc_interleaved or mbind "
            "MPOL_INTERLEAVE)");
  EXPECT_EQ(fixSentence("block_interleave"),
            "Split the object into per-thread blocks and place each block on its thread's node");
  EXPECT_EQ(fixSentence("duplicate"), "Duplicate the read-only data per node");
  EXPECT_EQ(fixSentence("padding"), "Pad/align the contended fields to separate cache lines");
  EXPECT_NE(fixSentence("thread_binding"), "thread_binding");
  EXPECT_NE(fixSentence("adjust_threads"), "adjust_threads");
  EXPECT_EQ(fixSentence("something_new"), "something_new");
}

TEST(NumberFormat, Basics) {
  EXPECT_EQ(formatFixed(4496.04, 1), "4496.0");
  EXPECT_EQ(formatFixed(0.0, 1), "0.0");
  EXPECT_EQ(formatShortest(1500), "1500");
  EXPECT_EQ(formatShortest(0.25), "0.25");
  EXPECT_EQ(formatShortest(std::nan("")), "nan");
  EXPECT_EQ(formatBytes(100), "100 B");
  EXPECT_EQ(formatBytes(8388608), "8.0 MiB");
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
}

TEST(TextLayout, Helpers) {
  EXPECT_EQ(truncateRight("abcdefghij", 10), "abcdefghij");
  EXPECT_EQ(truncateRight("abcdefghijk", 10), "abcdefg...");
  EXPECT_EQ(shortenLeft("/a/b/c/file.cc", 14), "/a/b/c/file.cc");
  EXPECT_EQ(shortenLeft("/aaaa/bbbb/cccc/file.cc", 16), ".../cccc/file.cc");
  EXPECT_EQ(shortenLeft("/aaaa/bbbb/cccc/file.cc", 13), ".../file.cc");
  // A long component is cut rather than dropped entirely.
  EXPECT_EQ(shortenLeft("/" + std::string(40, 'd') + "/file.cc", 20), "...ddddddddd/file.cc");
  EXPECT_EQ(displayWidth("h\xc3\xa9llo"), 5u);  // UTF-8 counts code points
  EXPECT_EQ(truncateRight("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4), "\xc3\xa9...");
  auto w = wrapText("one two three four", 10, "> ", "  ");
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], "> one two");
  EXPECT_EQ(w[1], "  three");
  EXPECT_EQ(w[2], "  four");
  auto split = wrapText(std::string(25, 'x'), 10, "", "");
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[2], "xxxxx");
  EXPECT_EQ(wrapText("", 10, "- ", "  "), std::vector<std::string>{"- "});
}
