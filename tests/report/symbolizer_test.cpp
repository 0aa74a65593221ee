#include "symbolize/symbolizer.h"

#include "probe.h"
#include "symbolize/module_snapshot.h"

#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <memory>
#include <string>

using numaperf::report::Frame;
using numaperf::symbolize::findModule;
using numaperf::symbolize::ModuleInfo;
using numaperf::symbolize::snapshotModules;
using numaperf::symbolize::Symbolizer;

namespace {

std::string basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

REPORT_TEST_NOINLINE int functionAtLine(int x) { return x * 3 + __LINE__; }

REPORT_TEST_NOINLINE void mainProbe(uint64_t* pc, int* line) {
  *pc = reportTestReturnAddress(); *line = __LINE__;
}

}  // namespace

namespace probe {
struct Widget {
  REPORT_TEST_NOINLINE void method(uint64_t* pc, int* line);
};
REPORT_TEST_NOINLINE void Widget::method(uint64_t* pc, int* line) {
  *pc = reportTestReturnAddress(); *line = __LINE__;
}
}  // namespace probe

TEST(ModuleSnapshot, MainExecutableIsPieWithBuildId) {
  auto modules = snapshotModules();
  ASSERT_FALSE(modules.empty());
  const ModuleInfo& main = modules.front();
  EXPECT_TRUE(main.is_main);
  EXPECT_EQ(basename(main.path), "report_tests");
  EXPECT_NE(main.load_bias, 0u) << "test binary should be PIE";
  EXPECT_FALSE(main.ranges.empty());
  EXPECT_EQ(main.build_id.size() % 2, 0u);
  EXPECT_GE(main.build_id.size(), 16u);  // Debian links with --build-id
  auto pc = reinterpret_cast<uint64_t>(&functionAtLine);
  EXPECT_EQ(findModule(modules, pc), &modules.front());
}

TEST(Symbolizer, FunctionAddressInPieExecutable) {
  Symbolizer sym(snapshotModules());
  auto pc = reinterpret_cast<uint64_t>(&functionAtLine);
  Frame f = sym.symbolize(pc, false);
  EXPECT_EQ(f.pc, pc);
  EXPECT_EQ(basename(f.module), "report_tests");
  EXPECT_EQ(f.module_offset, pc - sym.modules().front().load_bias);
  EXPECT_EQ(basename(f.location.file), "symbolizer_test.cpp");
  EXPECT_EQ(f.location.line, static_cast<uint32_t>(functionAtLine(0)));
  EXPECT_NE(f.location.function.find("functionAtLine"), std::string::npos)
      << f.location.function;
}

TEST(Symbolizer, ReturnAddressInPieExecutable) {
  uint64_t pc = 0;
  int line = 0;
  mainProbe(&pc, &line);
  Symbolizer sym(snapshotModules());
  Frame f = sym.symbolize(pc, true);
  EXPECT_EQ(f.pc, pc);
  EXPECT_EQ(basename(f.location.file), "symbolizer_test.cpp");
  EXPECT_EQ(f.location.line, static_cast<uint32_t>(line));
  EXPECT_EQ(f.location.function, "(anonymous namespace)::mainProbe(unsigned long*, int*)");
  // Cached result is identical.
  Frame again = sym.symbolize(pc, true);
  EXPECT_EQ(again.location.line, f.location.line);
  EXPECT_EQ(again.location.function, f.location.function);
}

TEST(Symbolizer, InlinedFramesAreLookedUpOncePerAddress) {
  // Exit reports symbolize every frame of every allocation stack; stacks share
  // addresses, and a scope walk over a large compilation unit is slow.
  uint64_t pc = 0;
  int line = 0;
  mainProbe(&pc, &line);
  Symbolizer sym(snapshotModules());
  auto first = sym.symbolizeInlined(pc, true);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.front().location.line, static_cast<uint32_t>(line));
  EXPECT_EQ(sym.inlinedLookups(), 1u);
  auto again = sym.symbolizeInlined(pc, true);
  EXPECT_EQ(sym.inlinedLookups(), 1u);
  ASSERT_EQ(again.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(again[i].location.line, first[i].location.line);
    EXPECT_EQ(again[i].location.function, first[i].location.function);
  }
  sym.symbolizeInlined(pc, false);  // another key: a lookup of its own
  EXPECT_EQ(sym.inlinedLookups(), 2u);
}

TEST(Symbolizer, CppMethodNameIsDemangled) {
  uint64_t pc = 0;
  int line = 0;
  probe::Widget w;
  w.method(&pc, &line);
  Symbolizer sym(snapshotModules());
  Frame f = sym.symbolize(pc, true);
  EXPECT_EQ(f.location.function, "probe::Widget::method(unsigned long*, int*)");
  EXPECT_EQ(f.location.line, static_cast<uint32_t>(line));
}

TEST(Symbolizer, SharedLibraryLinkedNormally) {
  uint64_t pc = 0;
  int line = 0;
  shlibProbe(&pc, &line);
  auto modules = snapshotModules();
  const ModuleInfo* m = findModule(modules, pc);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(basename(m->path), "libreport_test_shlib.so");
  Symbolizer sym(modules);
  Frame f = sym.symbolize(pc, true);
  EXPECT_EQ(basename(f.module), "libreport_test_shlib.so");
  EXPECT_EQ(f.module_offset, pc - m->load_bias);
  EXPECT_EQ(basename(f.location.file), "shlib_probe.cpp");
  EXPECT_EQ(f.location.line, static_cast<uint32_t>(line));
  EXPECT_EQ(f.location.function, "shlibProbe(unsigned long*, int*)");
}

TEST(Symbolizer, DlopenedLibrary) {
  void* handle = dlopen(REPORT_TEST_DLOPEN_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto probe = reinterpret_cast<DlopenProbeFn>(dlsym(handle, "dlopenProbe"));
  ASSERT_NE(probe, nullptr);
  uint64_t pc = 0;
  int line = 0;
  probe(&pc, &line);
  Symbolizer sym(snapshotModules());  // snapshot taken after dlopen
  Frame f = sym.symbolize(pc, true);
  EXPECT_EQ(basename(f.module), "libreport_test_dlopen.so");
  EXPECT_EQ(basename(f.location.file), "dlopen_probe.cpp");
  EXPECT_EQ(f.location.line, static_cast<uint32_t>(line));
  EXPECT_EQ(f.location.function, "dlopenProbe");
  // The function's own address, not a return address.
  auto fn = reinterpret_cast<uint64_t>(probe);
  Frame entry = sym.symbolize(fn, false);
  EXPECT_EQ(entry.location.function, "dlopenProbe");
  EXPECT_EQ(basename(entry.location.file), "dlopen_probe.cpp");
  dlclose(handle);
}

TEST(Symbolizer, UnknownPcGivesEmptyResults) {
  Symbolizer sym(snapshotModules());
  auto heap = std::make_unique<int[]>(16);
  for (uint64_t pc : {uint64_t{0}, uint64_t{0x10}, reinterpret_cast<uint64_t>(heap.get()),
                      ~uint64_t{0}}) {
    for (bool ret : {false, true}) {
      Frame f = sym.symbolize(pc, ret);
      EXPECT_EQ(f.pc, pc);
      EXPECT_EQ(f.module, "");
      EXPECT_EQ(f.module_offset, 0u);
      EXPECT_EQ(f.location.file, "");
      EXPECT_EQ(f.location.line, 0u);
      EXPECT_EQ(f.location.function, "");
    }
  }
}

TEST(Symbolizer, EmptySnapshot) {
  Symbolizer sym({});
  Frame f = sym.symbolize(reinterpret_cast<uint64_t>(&functionAtLine), false);
  EXPECT_EQ(f.module, "");
  EXPECT_EQ(f.location.line, 0u);
}

TEST(Symbolizer, SystemLibraryWithoutDebugInfoUsesSymbolTable) {
  auto pc = reinterpret_cast<uint64_t>(&getpid);
  Symbolizer sym(snapshotModules());
  Frame f = sym.symbolize(pc, false);
  EXPECT_EQ(basename(f.module).rfind("libc.so", 0), 0u) << f.module;
  EXPECT_NE(f.location.function.find("getpid"), std::string::npos) << f.location.function;
}

TEST(ModuleSnapshot, SystemModulesAreTheDistributionsLibraries) {
  using numaperf::symbolize::isSystemModule;
  EXPECT_TRUE(isSystemModule("/lib/x86_64-linux-gnu/libc.so.6"));
  EXPECT_TRUE(isSystemModule("/usr/lib/x86_64-linux-gnu/libstdc++.so.6"));
  EXPECT_TRUE(isSystemModule("/lib64/ld-linux-x86-64.so.2"));
  EXPECT_FALSE(isSystemModule("/usr/local/lib/libmine.so"));
  EXPECT_FALSE(isSystemModule("/home/me/build/libmine.so"));
  EXPECT_FALSE(isSystemModule("/library/libmine.so"));
}

// By default a system library's frames are named from its symbol tables and
// get no source line or inlined calls, even where its debug package is
// installed (reading that DWARF is what costs at exit); the option asks for
// them, and finds them when the package is there.
TEST(Symbolizer, SystemLibraryFramesGetNoSourceLinesByDefault) {
  auto pc = reinterpret_cast<uint64_t>(&getpid);
  Symbolizer plain(snapshotModules());
  Frame f = plain.symbolize(pc, false);
  EXPECT_NE(f.location.function.find("getpid"), std::string::npos) << f.location.function;
  EXPECT_EQ(f.location.file, "");
  EXPECT_EQ(f.location.line, 0u);
  EXPECT_EQ(plain.symbolizeInlined(pc, false).size(), 1u);
  EXPECT_EQ(plain.inlinedLookups(), 0u);

  numaperf::symbolize::SymbolizerOptions options;
  options.system_source_lines = true;
  Symbolizer full(snapshotModules(), options);
  Frame g = full.symbolize(pc, false);
  EXPECT_NE(g.location.function.find("getpid"), std::string::npos) << g.location.function;
  full.symbolizeInlined(pc, false);
  EXPECT_EQ(full.inlinedLookups(), 1u);  // the DWARF was asked
  if (g.location.file.empty()) GTEST_SKIP() << "no debug info for libc on this machine";
  EXPECT_GT(g.location.line, 0u);
}
