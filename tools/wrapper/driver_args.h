// Argument analysis for the numaperf compiler wrappers (numaperf-clang,
// numaperf-clang++). Everything here is pure (no environment, no exec) except
// for reading response files, so it can be unit tested.
#ifndef NUMAPERF_WRAPPER_DRIVER_ARGS_H
#define NUMAPERF_WRAPPER_DRIVER_ARGS_H

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace numaperf::wrapper {

// Splits the text of a response file like clang does for GNU-style files:
// whitespace separates arguments, '...' and "..." quote, a backslash escapes
// the next character (also inside quotes).
std::vector<std::string> tokenizeGnu(const std::string &text);

// Reads a file into *out; returns false if it cannot be read.
using FileReader = std::function<bool(const std::string &path, std::string *out)>;
bool readFile(const std::string &path, std::string *out);

// Expands @file arguments recursively (clang resolves nested names relative
// to the working directory, as done here). An @file that cannot be read
// stays as it is (clang then reports it as a missing input).
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             const FileReader &reader = readFile);

// Removes the wrapper's own options from the command line:
// --numaperf-filter=FILE or --numaperf-filter FILE (the last one wins; its
// file ends up in *filter, "" if none). They never reach clang. Returns false
// with *error set when the option has no value.
bool takeWrapperOptions(std::vector<std::string> *args, std::string *filter,
                        std::string *error);

// How far the driver goes: the last phase it runs.
enum class Mode {
  PassThrough, // --version, -###, -print-*, --help, no inputs ...: untouched
  Preprocess,  // -E, -M, -MM
  SyntaxOnly,  // -fsyntax-only, --analyze, -emit-ast ...: no code generation
  Assemble,    // -S: compile to assembly (or IR with -emit-llvm)
  Compile,     // -c: compile to an object
  Link,        // no phase flag: compile the sources (if any) and link
};
const char *modeName(Mode m);

enum class LinkKind { None, Executable, Shared, Relocatable, Static };

struct Analysis {
  Mode mode = Mode::PassThrough;
  LinkKind link = LinkKind::None;
  std::string passThroughReason;  // set when mode == PassThrough
  bool hasInputs = false;         // any file input (incl. "-")
  bool hasCFamilyInputs = false;  // C/C++/ObjC sources (by suffix or -x)
  bool userDebugLevel = false;    // a -g option that picks a debug level (incl. -g0)
  bool debugDisabled = false;     // the last such option was -g0
  bool userOmitFramePointer = false; // last of -f[no-]omit-frame-pointer is -fomit...
  bool zDefs = false;             // -Wl,-z,defs / --no-undefined (last wins)
  bool endOfOptions = false;      // a "--" was seen (everything after it is an input)
};

// Classifies the (already response-file expanded) arguments, argv[0] excluded.
Analysis analyze(const std::vector<std::string> &args);

// Input language class of a file name given the current -x value ("" = by
// suffix). Returns true for C, C++, Objective-C(++) sources, incl. .i/.ii.
bool isCFamilyInput(const std::string &file, const std::string &xLang);

struct Paths {
  std::string plugin;      // .../lib/numaperf/NumaPerfPass.so
  std::string runtime;     // .../lib/libnumaperf.so
  std::string runtimeDir;  // directory of the runtime, for the rpath
  std::string includeDir;  // .../include
};

struct Plan {
  std::vector<std::string> args;  // final arguments, argv[0] excluded
  bool needsPlugin = false;
  bool needsRuntime = false;
  std::vector<std::string> warnings;  // one line each, without the prefix
};

// Builds the final argument list: the user's arguments (unexpanded, in order)
// plus what the wrapper adds for the given analysis.
Plan plan(const std::vector<std::string> &userArgs, const Analysis &a, const Paths &p);

}  // namespace numaperf::wrapper

#endif
