// Unit tests for the wrapper's argument analysis (tools/wrapper/driver_args.h).
#include "driver_args.h"

#include <gtest/gtest.h>

#include <map>

using namespace numaperf::wrapper;
using Args = std::vector<std::string>;

namespace {

Paths testPaths() {
  Paths p;
  p.plugin = "/P/lib/numaperf/NumaPerfPass.so";
  p.runtime = "/P/lib/libnumaperf.so";
  p.runtimeDir = "/P/lib";
  p.includeDir = "/P/include";
  return p;
}

Analysis an(const Args &a) { return analyze(a); }

Plan planFor(const Args &a) { return plan(a, analyze(a), testPaths()); }

bool has(const Args &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The user's arguments must appear in the plan, unchanged and in order.
void expectSubsequence(const Args &user, const Args &final) {
  size_t j = 0;
  for (const auto &u : user) {
    while (j < final.size() && final[j] != u) ++j;
    ASSERT_LT(j, final.size()) << "user argument lost or reordered: " << u;
    ++j;
  }
}

FileReader fakeFiles(std::map<std::string, std::string> files) {
  return [files](const std::string &path, std::string *out) {
    auto it = files.find(path);
    if (it == files.end()) return false;
    *out = it->second;
    return true;
  };
}

}  // namespace

TEST(Mode, CompileAssemblePreprocess) {
  EXPECT_EQ(an({"-c", "a.c"}).mode, Mode::Compile);
  EXPECT_EQ(an({"-S", "a.c"}).mode, Mode::Assemble);
  EXPECT_EQ(an({"-E", "a.c"}).mode, Mode::Preprocess);
  EXPECT_EQ(an({"-M", "a.c"}).mode, Mode::Preprocess);
  EXPECT_EQ(an({"-MM", "a.c"}).mode, Mode::Preprocess);
  EXPECT_EQ(an({"-fsyntax-only", "a.c"}).mode, Mode::SyntaxOnly);
  EXPECT_EQ(an({"a.c", "-o", "a"}).mode, Mode::Link);
}

TEST(Mode, PhasePrecedenceLikeClang) {
  EXPECT_EQ(an({"-c", "-S", "a.c"}).mode, Mode::Assemble);
  EXPECT_EQ(an({"-S", "-E", "a.c"}).mode, Mode::Preprocess);
  EXPECT_EQ(an({"-c", "-fsyntax-only", "a.c"}).mode, Mode::SyntaxOnly);
  EXPECT_EQ(an({"-c", "-M", "a.c"}).mode, Mode::Preprocess);
}

TEST(Mode, DependencyFlagsWithCompileStillCompile) {
  EXPECT_EQ(an({"-MD", "-MF", "a.d", "-c", "a.c"}).mode, Mode::Compile);
  EXPECT_EQ(an({"-MMD", "-MT", "a.o", "-c", "a.c", "-o", "a.o"}).mode, Mode::Compile);
  // -MF's value is not an input even when it looks like a source.
  Analysis a = an({"-MD", "-MF", "dep.c", "-c", "x.s"});
  EXPECT_FALSE(a.hasCFamilyInputs);
}

TEST(Mode, LinkKinds) {
  EXPECT_EQ(an({"a.o", "b.o", "-o", "x"}).link, LinkKind::Executable);
  EXPECT_EQ(an({"-shared", "a.o", "-o", "x.so"}).link, LinkKind::Shared);
  EXPECT_EQ(an({"-r", "a.o", "-o", "x.o"}).link, LinkKind::Relocatable);
  EXPECT_EQ(an({"-Wl,-r", "a.o", "-o", "x.o"}).link, LinkKind::Relocatable);
  EXPECT_EQ(an({"-static", "a.o"}).link, LinkKind::Static);
  EXPECT_EQ(an({"-static-pie", "a.o"}).link, LinkKind::Static);
  EXPECT_EQ(an({"-static-libstdc++", "a.o"}).link, LinkKind::Executable);
  EXPECT_EQ(an({"-Wl,-static", "a.o"}).link, LinkKind::Executable);
  EXPECT_EQ(an({"-c", "-shared", "a.c"}).link, LinkKind::None);
}

TEST(Mode, ZDefsSpellings) {
  EXPECT_TRUE(an({"-shared", "-Wl,-z,defs", "a.o"}).zDefs);
  EXPECT_TRUE(an({"-shared", "-Wl,-zdefs", "a.o"}).zDefs);
  EXPECT_TRUE(an({"-shared", "-Wl,--no-undefined", "a.o"}).zDefs);
  EXPECT_TRUE(an({"-shared", "-Xlinker", "-z", "-Xlinker", "defs", "a.o"}).zDefs);
  EXPECT_TRUE(an({"-shared", "-z", "defs", "a.o"}).zDefs);
  EXPECT_FALSE(an({"-shared", "-Wl,-z,defs", "-Wl,-z,undefs", "a.o"}).zDefs);
  EXPECT_FALSE(an({"-shared", "-Wl,-z,now", "a.o"}).zDefs);
}

TEST(Mode, PassThrough) {
  EXPECT_EQ(an({"--version"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-v"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-###", "-c", "a.c"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-print-search-dirs"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-print-file-name=libc.so"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-print-prog-name=ld"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-dumpversion"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-dumpmachine"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"--help"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-c"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-Wl,--version"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-V"}).mode, Mode::PassThrough);
  EXPECT_EQ(an({"-qversion"}).mode, Mode::PassThrough);
  Plan p = planFor({"--version"});
  EXPECT_EQ(p.args, Args({"--version"}));
  EXPECT_FALSE(p.needsPlugin);
  EXPECT_FALSE(p.needsRuntime);
}

TEST(Mode, VerboseWithInputsIsNotPassThrough) {
  EXPECT_EQ(an({"-v", "-c", "a.c"}).mode, Mode::Compile);
}

TEST(Inputs, LanguagesAndSeparateValues) {
  EXPECT_TRUE(an({"-c", "a.cpp"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-c", "a.cc"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-c", "a.C"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-c", "a.i"}).hasCFamilyInputs);
  EXPECT_FALSE(an({"-c", "a.s"}).hasCFamilyInputs);
  EXPECT_FALSE(an({"-c", "a.S"}).hasCFamilyInputs);
  EXPECT_FALSE(an({"-c", "a.ll"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-c", "-x", "c", "a.txt"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-c", "-xc++", "a.txt"}).hasCFamilyInputs);
  EXPECT_FALSE(an({"-c", "-x", "assembler", "a.c"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-c", "-x", "assembler", "a.s", "-x", "none", "b.c"}).hasCFamilyInputs);
  EXPECT_TRUE(an({"-x", "c", "-c", "-"}).hasCFamilyInputs);
  // Values of separate-argument options are not inputs.
  Analysis a = an({"-c", "-o", "out.c", "-include", "pre.h", "-I", "inc.c", "x.s"});
  EXPECT_TRUE(a.hasInputs);
  EXPECT_FALSE(a.hasCFamilyInputs);
  EXPECT_EQ(an({"-o", "x.c"}).mode, Mode::PassThrough);
  // After "--" everything is an input.
  Analysis d = an({"-c", "--", "-weird.c"});
  EXPECT_TRUE(d.hasCFamilyInputs);
  EXPECT_TRUE(d.endOfOptions);
}

TEST(Plan, CompileAddsInstrumentationFlags) {
  Args user = {"-O2", "-c", "a.c", "-o", "a.o"};
  Plan p = planFor(user);
  EXPECT_TRUE(p.needsPlugin);
  EXPECT_FALSE(p.needsRuntime);
  EXPECT_TRUE(has(p.args, "-fpass-plugin=/P/lib/numaperf/NumaPerfPass.so"));
  EXPECT_TRUE(has(p.args, "-g"));
  EXPECT_TRUE(has(p.args, "-fno-omit-frame-pointer"));
  EXPECT_TRUE(has(p.args, "-I/P/include"));
  EXPECT_FALSE(has(p.args, "/P/lib/libnumaperf.so"));
  expectSubsequence(user, p.args);
  // The user's arguments come last and untouched (-O level included).
  EXPECT_EQ(Args(p.args.end() - user.size(), p.args.end()), user);
}

TEST(Plan, AssembleGetsPlugin) {
  Plan p = planFor({"-S", "a.cpp"});
  EXPECT_TRUE(p.needsPlugin);
  EXPECT_TRUE(has(p.args, "-fpass-plugin=/P/lib/numaperf/NumaPerfPass.so"));
}

TEST(Plan, DebugInfoRules) {
  EXPECT_FALSE(has(planFor({"-g0", "-c", "a.c"}).args, "-g"));
  Plan last0 = planFor({"-g", "-g0", "-c", "a.c"});
  EXPECT_EQ(std::count(last0.args.begin(), last0.args.end(), std::string("-g")), 1);
  EXPECT_TRUE(an({"-g", "-g0", "-c", "a.c"}).debugDisabled);
  EXPECT_FALSE(an({"-g0", "-g", "-c", "a.c"}).debugDisabled);
  // A user level: nothing added in front.
  Plan g3 = planFor({"-g3", "-c", "a.c"});
  EXPECT_EQ(std::count(g3.args.begin(), g3.args.end(), std::string("-g")), 0);
  Plan gl = planFor({"-gline-tables-only", "-c", "a.c"});
  EXPECT_EQ(std::count(gl.args.begin(), gl.args.end(), std::string("-g")), 0);
  // Modifiers alone (-gz, -gsplit-dwarf) do not enable debug info: add -g.
  EXPECT_TRUE(has(planFor({"-gsplit-dwarf", "-c", "a.c"}).args, "-g"));
  EXPECT_TRUE(has(planFor({"-gz", "-c", "a.c"}).args, "-g"));
}

TEST(Plan, FramePointerRules) {
  EXPECT_FALSE(has(planFor({"-fomit-frame-pointer", "-c", "a.c"}).args,
                   "-fno-omit-frame-pointer"));
  EXPECT_TRUE(has(planFor({"-fomit-frame-pointer", "-fno-omit-frame-pointer", "-c", "a.c"}).args,
                  "-fno-omit-frame-pointer"));
  Args user = {"-fomit-frame-pointer", "-c", "a.c"};
  Plan p = planFor(user);
  EXPECT_EQ(Args(p.args.end() - 3, p.args.end()), user);
}

TEST(Plan, AssemblyOnlyCompileIsUntouched) {
  Args user = {"-c", "a.S", "-o", "a.o"};
  Plan p = planFor(user);
  EXPECT_EQ(p.args, user);
  EXPECT_FALSE(p.needsPlugin);
}

TEST(Plan, PreprocessOnlyGetsIncludeDir) {
  Args user = {"-E", "a.c"};
  Plan p = planFor(user);
  EXPECT_FALSE(p.needsPlugin);
  EXPECT_FALSE(p.needsRuntime);
  EXPECT_TRUE(has(p.args, "-I/P/include"));
  EXPECT_FALSE(has(p.args, "-g"));
  EXPECT_FALSE(has(p.args, "-fpass-plugin=/P/lib/numaperf/NumaPerfPass.so"));
}

TEST(Plan, ExecutableLinkAddsRuntimeFirstAndRpathLast) {
  Args user = {"a.o", "b.o", "-lfoo", "-o", "prog"};
  Plan p = planFor(user);
  EXPECT_TRUE(p.needsRuntime);
  EXPECT_FALSE(p.needsPlugin);  // no sources: no compile step
  auto rt = std::find(p.args.begin(), p.args.end(), "/P/lib/libnumaperf.so");
  ASSERT_NE(rt, p.args.end());
  EXPECT_EQ(*(rt - 1), "-Wl,--push-state,--no-as-needed,-Bdynamic");
  EXPECT_EQ(*(rt + 1), "-Wl,--pop-state");
  EXPECT_LT(rt - p.args.begin(), std::find(p.args.begin(), p.args.end(), "a.o") - p.args.begin());
  EXPECT_EQ(p.args.back(), "-Wl,-rpath,/P/lib");
  EXPECT_FALSE(has(p.args, "-pthread"));
  expectSubsequence(user, p.args);
}

TEST(Plan, CompileAndLinkGetsBoth) {
  Plan p = planFor({"a.c", "-o", "a"});
  EXPECT_TRUE(p.needsPlugin);
  EXPECT_TRUE(p.needsRuntime);
}

TEST(Plan, RpathGoesBeforeDashDash) {
  Plan p = planFor({"-o", "a", "--", "a.o"});
  ASSERT_GE(p.args.size(), 3u);
  EXPECT_EQ(p.args[p.args.size() - 3], "-Wl,-rpath,/P/lib");
  EXPECT_EQ(p.args[p.args.size() - 2], "--");
}

TEST(Plan, SharedAndRelocatableLinks) {
  Args shared = {"-shared", "a.o", "-o", "liba.so"};
  Plan s = planFor(shared);
  EXPECT_FALSE(s.needsRuntime);
  EXPECT_EQ(s.args, shared);
  Plan d = planFor({"-shared", "-Wl,-z,defs", "a.o", "-o", "liba.so"});
  EXPECT_TRUE(d.needsRuntime);
  EXPECT_TRUE(has(d.args, "/P/lib/libnumaperf.so"));
  Args r = {"-r", "a.o", "b.o", "-o", "ab.o"};
  EXPECT_EQ(planFor(r).args, r);
  // Sources compiled in a -shared command are still instrumented.
  EXPECT_TRUE(planFor({"-shared", "-fPIC", "a.c", "-o", "liba.so"}).needsPlugin);
}

TEST(Plan, StaticLinkWarnsAndSkipsRuntimeAndPlugin) {
  Plan p = planFor({"-static", "a.c", "-o", "a"});
  EXPECT_FALSE(p.needsRuntime);
  EXPECT_FALSE(p.needsPlugin);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("static"), std::string::npos);
}

TEST(Plan, UnknownFlagsPreservedInOrder) {
  Args user = {"-fmy-unknown-flag", "-c", "--weird=1", "a.c", "-Xfoo", "bar", "-O3",
               "-mllvm", "-x", "-Os", "-Wl,--gc-sections"};
  Plan p = planFor(user);
  EXPECT_EQ(Args(p.args.end() - user.size(), p.args.end()), user);
  // -mllvm consumed "-x": it must not change the language of a.c.
  EXPECT_TRUE(an(user).hasCFamilyInputs);
}

TEST(Plan, OptimisationLevelsUntouched) {
  for (const char *o : {"-O0", "-O1", "-O2", "-O3", "-Os", "-Oz", "-Ofast"}) {
    Plan p = planFor({o, "-c", "a.c"});
    EXPECT_EQ(std::count(p.args.begin(), p.args.end(), std::string(o)), 1) << o;
    for (const auto &x : p.args)
      if (x.rfind("-O", 0) == 0) EXPECT_EQ(x, o);
  }
}

TEST(ResponseFiles, TokenizeGnu) {
  EXPECT_EQ(tokenizeGnu("a b\tc\n d"), Args({"a", "b", "c", "d"}));
  EXPECT_EQ(tokenizeGnu("'a b' \"c d\""), Args({"a b", "c d"}));
  EXPECT_EQ(tokenizeGnu("a\\ b"), Args({"a b"}));
  EXPECT_EQ(tokenizeGnu("-DX=\"p\\\"q\""), Args({"-DX=p\"q"}));
  EXPECT_EQ(tokenizeGnu("pre'mid dle'post"), Args({"premid dlepost"}));
  EXPECT_EQ(tokenizeGnu("  \n "), Args({}));
  EXPECT_EQ(tokenizeGnu("x \"\" y"), Args({"x", "y"}));  // like LLVM
}

TEST(ResponseFiles, NestedAndQuoted) {
  auto reader = fakeFiles({{"outer.rsp", "-O2 @inner.rsp 'my file.c'"},
                           {"inner.rsp", "-c\n-o \"out dir/x.o\""}});
  Args e = expandResponseFiles({"@outer.rsp", "-g0"}, reader);
  EXPECT_EQ(e, Args({"-O2", "-c", "-o", "out dir/x.o", "my file.c", "-g0"}));
  Analysis a = analyze(e);
  EXPECT_EQ(a.mode, Mode::Compile);
  EXPECT_TRUE(a.hasCFamilyInputs);
  EXPECT_TRUE(a.debugDisabled);
}

TEST(ResponseFiles, ModeFromResponseFileOnly) {
  auto reader = fakeFiles({{"objs.rsp", "a.o b.o -shared"}});
  Args user = {"@objs.rsp", "-o", "libx.so"};
  Analysis a = analyze(expandResponseFiles(user, reader));
  EXPECT_EQ(a.mode, Mode::Link);
  EXPECT_EQ(a.link, LinkKind::Shared);
  // The plan keeps the @file itself, not its expansion.
  EXPECT_EQ(plan(user, a, testPaths()).args, user);
}

TEST(ResponseFiles, UnreadableStaysLiteralAndCyclesStop) {
  auto reader = fakeFiles({{"self.rsp", "@self.rsp -c"}});
  EXPECT_EQ(expandResponseFiles({"@missing.rsp"}, reader), Args({"@missing.rsp"}));
  Args e = expandResponseFiles({"@self.rsp"}, reader);
  EXPECT_FALSE(e.empty());  // terminates
}

TEST(ResponseFiles, DashDashInsideResponseFile) {
  auto reader = fakeFiles({{"r.rsp", "-o a -- a.o"}});
  Args user = {"@r.rsp"};
  Analysis a = analyze(expandResponseFiles(user, reader));
  EXPECT_TRUE(a.endOfOptions);
  Plan p = plan(user, a, testPaths());
  EXPECT_EQ(p.args.back(), "@r.rsp");  // nothing appended after an implicit "--"
  EXPECT_TRUE(has(p.args, "-Wl,-rpath,/P/lib"));
}

TEST(WrapperOptions, FilterIsTakenOut) {
  Args a = {"-O2", "--numaperf-filter=f.txt", "-c", "x.c"};
  std::string filter, error;
  ASSERT_TRUE(takeWrapperOptions(&a, &filter, &error));
  EXPECT_EQ(filter, "f.txt");
  EXPECT_EQ(a, (Args{"-O2", "-c", "x.c"}));

  Args b = {"--numaperf-filter", "a.txt", "x.c", "--numaperf-filter=b.txt", "--",
            "--numaperf-filter=c"};
  ASSERT_TRUE(takeWrapperOptions(&b, &filter, &error));
  EXPECT_EQ(filter, "b.txt");  // the last one wins; after "--" it is an input
  EXPECT_EQ(b, (Args{"x.c", "--", "--numaperf-filter=c"}));

  Args c = {"x.c", "--numaperf-filter"};
  EXPECT_FALSE(takeWrapperOptions(&c, &filter, &error));
  EXPECT_EQ(error, "missing file after --numaperf-filter");
  Args d = {"x.c", "--numaperf-filter="};
  EXPECT_FALSE(takeWrapperOptions(&d, &filter, &error));
}
