#include "driver_args.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_set>

namespace numaperf::wrapper {

namespace {

bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Driver options whose value is the next argument when written alone
// ("-o file", "-I dir", "-Xlinker x" ...). Joined spellings ("-Idir") never
// consume the next argument. Unknown options are assumed to take no separate
// value.
const std::unordered_set<std::string> &separateValueOptions() {
  static const std::unordered_set<std::string> set = {
      "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-F", "-B", "-T", "-u", "-z", "-e",
      "-A", "-G", "-V", "-b", "-MF", "-MT", "-MQ", "-MJ", "-Ttext", "-Tdata", "-Tbss",
      "-include", "-include-pch", "-imacros", "-idirafter", "-iframework",
      "-iframeworkwithsysroot", "-imultilib", "-iprefix", "-iquote", "-isysroot",
      "-isystem", "-isystem-after", "-ivfsoverlay", "-iwithprefix",
      "-iwithprefixbefore", "-iwithsysroot", "-cxx-isystem", "-Xlinker",
      "-Xassembler", "-Xpreprocessor", "-Xclang", "-Xanalyzer", "-Xopenmp-target",
      "-Xoffload-linker", "-Xcuda-fatbinary", "-Xcuda-ptxas", "-Xarch_host",
      "-Xarch_device", "-Xflang", "-mllvm", "-target", "-arch", "-working-directory",
      "-serialize-diagnostics", "-dependency-file", "-dependency-dot", "-resource-dir",
      "-gcc-toolchain", "--sysroot", "--param", "--output", "--include-directory",
      "--include-directory-after", "--define-macro", "--undefine-macro",
      "--library-directory", "--for-linker", "--force-link", "--language",
      "--prefix", "--assert", "--imacros", "--include", "--include-prefix",
      "--include-with-prefix", "--include-with-prefix-after",
      "--include-with-prefix-before", "--config", "--target", "-install_name",
      "-framework", "-weak_framework", "-filelist", "-exported_symbols_list",
      "-unexported_symbols_list", "-bundle_loader", "-dylib_file", "-seg1addr",
      "-compatibility_version", "-current_version", "-aux-info",
  };
  return set;
}

// -g options that select a debug info level (rather than modify its form).
bool isDebugLevelOption(const std::string &a) {
  static const std::unordered_set<std::string> set = {
      "-g", "-g0", "-g1", "-g2", "-g3", "-ggdb", "-ggdb0", "-ggdb1", "-ggdb2",
      "-ggdb3", "-gline-tables-only", "-gline-directives-only", "-gdwarf",
      "-gdwarf-2", "-gdwarf-3", "-gdwarf-4", "-gdwarf-5", "-glldb", "-gsce",
      "-gdbx", "-gfull", "-gused", "-gmodules", "--debug"};
  return set.count(a) != 0;
}

bool isCFamilyLanguage(const std::string &x) {
  static const std::unordered_set<std::string> set = {
      "c", "c++", "objective-c", "objective-c++", "cpp-output", "c++-cpp-output",
      "objective-c-cpp-output", "objc-cpp-output", "objective-c++-cpp-output",
      "objc++-cpp-output", "c-header", "c++-header", "objective-c-header",
      "objective-c++-header", "c++-module", "c-header-cpp-output",
      "c++-header-cpp-output"};
  return set.count(x) != 0;
}

}  // namespace

std::vector<std::string> tokenizeGnu(const std::string &src) {
  // Mirrors llvm::cl::TokenizeGNUCommandLine.
  std::vector<std::string> out;
  std::string token;
  const size_t n = src.size();
  for (size_t i = 0; i < n; ++i) {
    if (token.empty()) {
      while (i < n && isSpace(src[i])) ++i;
      if (i == n) break;
    }
    char c = src[i];
    if (c == '\\' && i + 1 < n) {
      ++i;
      token.push_back(src[i]);
      continue;
    }
    if (c == '"' || c == '\'') {
      ++i;
      while (i < n && src[i] != c) {
        if (src[i] == '\\' && i + 1 < n) ++i;
        token.push_back(src[i]);
        ++i;
      }
      if (i == n) break;
      continue;
    }
    if (isSpace(c)) {
      if (!token.empty()) out.push_back(token);
      token.clear();
      continue;
    }
    token.push_back(c);
  }
  if (!token.empty()) out.push_back(token);
  return out;
}

bool readFile(const std::string &path, std::string *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return false;
  *out = ss.str();
  return true;
}

static void expandInto(const std::vector<std::string> &args, const FileReader &reader,
                       int depth, std::vector<std::string> *out) {
  for (const std::string &a : args) {
    if (a.size() > 1 && a[0] == '@' && depth < 32) {
      std::string text;
      if (reader(a.substr(1), &text)) {
        expandInto(tokenizeGnu(text), reader, depth + 1, out);
        continue;
      }
    }
    out->push_back(a);
  }
}

std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             const FileReader &reader) {
  std::vector<std::string> out;
  expandInto(args, reader, 0, &out);
  return out;
}

bool takeWrapperOptions(std::vector<std::string> *args, std::string *filter,
                        std::string *error) {
  static const std::string kFilter = "--numaperf-filter";
  std::vector<std::string> kept;
  filter->clear();
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string &a = (*args)[i];
    if (a == "--") {  // inputs from here on
      kept.insert(kept.end(), args->begin() + long(i), args->end());
      break;
    }
    if (a == kFilter) {
      if (i + 1 >= args->size()) {
        *error = "missing file after " + kFilter;
        return false;
      }
      *filter = (*args)[++i];
    } else if (startsWith(a, "--numaperf-filter=")) {
      *filter = a.substr(kFilter.size() + 1);
    } else {
      kept.push_back(a);
      continue;
    }
    if (filter->empty()) {
      *error = "missing file after " + kFilter;
      return false;
    }
  }
  *args = std::move(kept);
  return true;
}

const char *modeName(Mode m) {
  switch (m) {
    case Mode::PassThrough: return "pass-through";
    case Mode::Preprocess: return "preprocess";
    case Mode::SyntaxOnly: return "syntax-only";
    case Mode::Assemble: return "assemble";
    case Mode::Compile: return "compile";
    case Mode::Link: return "link";
  }
  return "?";
}

bool isCFamilyInput(const std::string &file, const std::string &xLang) {
  if (!xLang.empty() && xLang != "none") return isCFamilyLanguage(xLang);
  if (file == "-") return true;  // stdin without -x: clang treats it as C
  static const char *const suffixes[] = {
      ".c",  ".i",   ".C",   ".cc",  ".cp", ".cpp", ".CPP", ".cxx", ".c++", ".ii",
      ".m",  ".mi",  ".mm",  ".M",   ".mii", ".cppm", ".h",  ".hh",  ".hpp", ".hxx",
      ".H",  ".h++"};
  for (const char *s : suffixes)
    if (endsWith(file, s)) return true;
  return false;
}

Analysis analyze(const std::vector<std::string> &args) {
  Analysis a;
  std::string xLang;
  bool sawE = false, sawM = false, syntaxOnly = false, sawS = false, sawC = false;
  bool shared = false, relocatable = false, isStatic = false;
  std::vector<std::string> ld;  // linker arguments, in order
  bool afterDashDash = false;

  auto input = [&](const std::string &f) {
    a.hasInputs = true;
    if (isCFamilyInput(f, xLang)) a.hasCFamilyInputs = true;
  };
  auto splitCommas = [&](const std::string &list) {
    size_t start = 0;
    while (true) {
      size_t comma = list.find(',', start);
      ld.push_back(list.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  };

  const auto &separate = separateValueOptions();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (afterDashDash) {
      input(arg);
      continue;
    }
    if (arg == "--") {
      afterDashDash = true;
      a.endOfOptions = true;
      continue;
    }
    if (arg.empty() || arg[0] != '-' || arg == "-") {
      input(arg);
      continue;
    }
    // Queries that must reach the compiler untouched.
    if (arg == "--version" || arg == "-###" || arg == "--help" || arg == "-help" ||
        startsWith(arg, "--help-") || arg == "-dumpversion" ||
        arg == "-dumpmachine" || startsWith(arg, "-print-") ||
        startsWith(arg, "--print-")) {
      if (a.passThroughReason.empty()) a.passThroughReason = arg;
      continue;
    }
    if (separate.count(arg)) {
      if (i + 1 >= args.size()) continue;  // clang reports the missing value
      const std::string &value = args[++i];
      if (arg == "-x" || arg == "--language") xLang = value;
      else if (arg == "-Xlinker" || arg == "--for-linker") ld.push_back(value);
      else if (arg == "-z") { ld.push_back("-z"); ld.push_back(value); }
      continue;
    }
    if (startsWith(arg, "-x")) { xLang = arg.substr(2); continue; }
    if (startsWith(arg, "--language=")) { xLang = arg.substr(11); continue; }
    if (startsWith(arg, "-Wl,")) { splitCommas(arg.substr(4)); continue; }
    if (startsWith(arg, "--for-linker=")) { ld.push_back(arg.substr(13)); continue; }

    if (arg == "-E" || arg == "--preprocess") sawE = true;
    else if (arg == "-M" || arg == "-MM" || arg == "--dependencies" ||
             arg == "--user-dependencies") sawM = true;
    else if (arg == "-fsyntax-only" || arg == "--analyze" || arg == "-emit-ast" ||
             arg == "-module-file-info" || arg == "-verify-pch" ||
             arg == "-rewrite-objc" || arg == "-rewrite-legacy-objc" ||
             arg == "--precompile")
      syntaxOnly = true;
    else if (arg == "-S" || arg == "--assemble") sawS = true;
    else if (arg == "-c" || arg == "--compile") sawC = true;
    else if (arg == "-shared" || arg == "--shared") shared = true;
    else if (arg == "-r") relocatable = true;
    else if (arg == "-static" || arg == "--static" || arg == "-static-pie") isStatic = true;
    else if (arg == "-fomit-frame-pointer") a.userOmitFramePointer = true;
    else if (arg == "-fno-omit-frame-pointer") a.userOmitFramePointer = false;
    else if (isDebugLevelOption(arg)) {
      a.userDebugLevel = true;
      a.debugDisabled = (arg == "-g0" || arg == "-ggdb0");
    }
  }

  for (size_t i = 0; i < ld.size(); ++i) {
    const std::string &t = ld[i];
    if (t == "-shared" || t == "-Bshareable" || t == "--shared") shared = true;
    else if (t == "-r" || t == "--relocatable" || t == "-Ur") relocatable = true;
    else if (t == "--no-undefined" || t == "-zdefs") a.zDefs = true;
    else if (t == "-zundefs") a.zDefs = false;
    else if (t == "-z" && i + 1 < ld.size()) {
      const std::string &v = ld[++i];
      if (v == "defs") a.zDefs = true;
      else if (v == "undefs") a.zDefs = false;
    }
  }

  if (!a.passThroughReason.empty()) {
    a.mode = Mode::PassThrough;
  } else if (!a.hasInputs) {
    a.mode = Mode::PassThrough;
    a.passThroughReason = "no input files";
  } else if (sawE || sawM) {
    a.mode = Mode::Preprocess;
  } else if (syntaxOnly) {
    a.mode = Mode::SyntaxOnly;
  } else if (sawS) {
    a.mode = Mode::Assemble;
  } else if (sawC) {
    a.mode = Mode::Compile;
  } else {
    a.mode = Mode::Link;
    if (shared) a.link = LinkKind::Shared;
    else if (relocatable) a.link = LinkKind::Relocatable;
    else if (isStatic) a.link = LinkKind::Static;
    else a.link = LinkKind::Executable;
  }
  return a;
}

Plan plan(const std::vector<std::string> &userArgs, const Analysis &a, const Paths &p) {
  Plan out;
  std::vector<std::string> front, tail;
  const bool codegen = a.mode == Mode::Assemble || a.mode == Mode::Compile ||
                       (a.mode == Mode::Link && a.link != LinkKind::Static);
  const bool frontEndOnly = a.mode == Mode::Preprocess || a.mode == Mode::SyntaxOnly ||
                            (a.mode == Mode::Link && a.link == LinkKind::Static);

  if (a.hasCFamilyInputs && (codegen || frontEndOnly)) {
    // Wrapped so that none of these can trigger -Wunused-command-line-argument
    // (e.g. with -Werror) when an input does not use them.
    front.push_back("--start-no-unused-arguments");
    if (codegen) {
      out.needsPlugin = true;
      front.push_back("-fpass-plugin=" + p.plugin);
      if (!a.userDebugLevel) front.push_back("-g");
      if (!a.userOmitFramePointer) front.push_back("-fno-omit-frame-pointer");
    }
    front.push_back("-I" + p.includeDir);
    front.push_back("--end-no-unused-arguments");
  }

  if (a.mode == Mode::Link) {
    const bool withRuntime = a.link == LinkKind::Executable ||
                             (a.link == LinkKind::Shared && a.zDefs);
    if (withRuntime) {
      out.needsRuntime = true;
      // First among the libraries, so the runtime precedes libc/libstdc++ (and
      // the user's own libraries) in the search order; always NEEDED whatever
      // the user's --as-needed state, which is left as it was.
      front.push_back("-Wl,--push-state,--no-as-needed,-Bdynamic");
      front.push_back(p.runtime);
      front.push_back("-Wl,--pop-state");
      tail.push_back("-Wl,-rpath," + p.runtimeDir);
    } else if (a.link == LinkKind::Static) {
      out.warnings.push_back(
          "warning: static executables are not supported; linking without the "
          "numaperf runtime and without instrumentation (objects built by "
          "numaperf-clang -c will fail with undefined __numaperf_* symbols)");
    }
  }

  out.args = front;
  auto dashDash = std::find(userArgs.begin(), userArgs.end(), std::string("--"));
  if (dashDash != userArgs.end()) {
    out.args.insert(out.args.end(), userArgs.begin(), dashDash);
    out.args.insert(out.args.end(), tail.begin(), tail.end());
    out.args.insert(out.args.end(), dashDash, userArgs.end());
  } else if (a.endOfOptions) {
    // "--" hidden in a response file: anything appended would be an input.
    out.args.insert(out.args.end(), tail.begin(), tail.end());
    out.args.insert(out.args.end(), userArgs.begin(), userArgs.end());
  } else {
    out.args.insert(out.args.end(), userArgs.begin(), userArgs.end());
    out.args.insert(out.args.end(), tail.begin(), tail.end());
  }
  return out;
}

}  // namespace numaperf::wrapper
