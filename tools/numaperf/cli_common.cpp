#include "cli_common.h"

#include "report/atomic_write.h"
#include "report/number_format.h"

#include <cctype>
#include <cmath>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <unistd.h>

#ifndef NUMAPERF_VERSION
#define NUMAPERF_VERSION "unknown"
#endif

namespace numaperf::cli {

namespace {

bool g_parse_only = false;
bool g_have_after = false;
std::vector<std::string> g_after;

// Length of the valid UTF-8 sequence at s[i], 0 when invalid.
size_t utf8Length(const std::string& s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

// One printable line: newlines become spaces, other control bytes and
// invalid UTF-8 (e.g. quoted from a corrupt file) become \xNN.
std::string oneLine(const std::string& in) {
  std::string s;
  for (size_t i = 0; i < in.size();) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    size_t n = utf8Length(in, i);
    if (c == '\n' || c == '\r' || c == '\t') {
      s += ' ';
      n = 1;
    } else if (n == 0 || c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      s += buf;
      n = 1;
    } else {
      s.append(in, i, n);
    }
    i += n;
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

void message(const std::string& text) {
  std::fflush(stdout);
  std::string line = "numaperf: " + oneLine(text) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void note(const std::string& text) { message("note: " + text); }

void finish(int code, const std::string& text) {
  if (!text.empty()) message(text);
  throw CLI::RuntimeError(code);
}

LoadedProfile loadOrFail(const std::string& path) {
  std::string error;
  std::optional<LoadedProfile> loaded = loadProfile(path, &error);
  if (!loaded) finish(kExitUsage, error);
  const std::vector<std::string>& unknown = loaded->unknown_fields;
  if (!unknown.empty()) {
    std::string list;
    for (size_t i = 0; i < unknown.size() && i < 3; ++i) list += (i ? ", " : "") + unknown[i];
    if (unknown.size() > 3)
      list += " and " + std::to_string(unknown.size() - 3) + (unknown.size() >= 100 ? "+" : "") +
              " more";
    note((path == "-" ? std::string("<stdin>") : path) + ": ignoring unknown field" +
         (unknown.size() == 1 ? " " : "s ") + list);
  }
  return std::move(*loaded);
}

void writeOutput(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    size_t done = std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::fflush(stdout) != 0 || done != text.size())
      finish(kExitUsage, std::string("cannot write to standard output: ") + std::strerror(errno));
    return;
  }
  std::string error;
  if (!report::writeFileAtomically(path, text, &error))
    finish(kExitUsage, "cannot write " + path + ": " + error);
}

bool useColor(const std::string& mode, const std::string& output_path) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (!output_path.empty() && output_path != "-") return false;
  return isatty(1) && std::getenv("NO_COLOR") == nullptr;
}

bool parseFinite(const std::string& text, double* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == text.c_str() || *end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parseRelative(const std::string& text, double* out) {
  double v = 0;
  bool percent = !text.empty() && text.back() == '%';
  if (!parseFinite(percent ? text.substr(0, text.size() - 1) : text, &v) || v < 0) return false;
  *out = percent ? v / 100.0 : v;
  return true;
}

CLI::Validator finiteNonNegative() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (!parseFinite(text, &v) || v < 0) return "expected a finite number >= 0, got '" + text + "'";
        return std::string();
      },
      "NUMBER>=0");
}

std::string formatValue(double value) {
  double a = std::fabs(value);
  return report::formatFixed(value, a >= 100 ? 1 : a >= 1 ? 2 : 4);
}

std::string formatPercentChange(double a, double b) {
  if (a == 0) return b == 0 ? "+0.0%" : "new";
  double pct = (b - a) / std::fabs(a) * 100.0;
  return (pct >= 0 ? "+" : "") + report::formatFixed(pct, 1) + "%";
}

void setParseOnly(bool parse_only) { g_parse_only = parse_only; }
bool parseOnly() { return g_parse_only; }

void configureApp(CLI::App& app) {
  app.description(
      "numaperf: re-render, compare and gate NUMA profiles written by programs built with "
      "numaperf-clang, and run programs under the profiler.");
  app.footer(
      "Exit codes: 0 success, 1 `check` found a regression, 2 usage error or unusable input.\n"
      "Run 'numaperf SUBCOMMAND --help' for the options of a subcommand.");
  app.set_version_flag("--version", std::string("numaperf ") + NUMAPERF_VERSION);
  app.require_subcommand(1);
}

const std::vector<std::string>* argumentsAfterDashDash() {
  return g_have_after ? &g_after : nullptr;
}

int parseAndRun(CLI::App& app, int argc, const char* const* argv) {
  try {
    try {
      // `run`'s program may have options of its own: split at the first --.
      g_have_after = false;
      g_after.clear();
      int used = argc;
      int first = 1;
      while (first < argc && argv[first][0] == '-' && std::strcmp(argv[first], "--") != 0) ++first;
      if (first < argc && std::strcmp(argv[first], "run") == 0) {
        for (int i = first + 1; i < argc; ++i) {
          if (std::strcmp(argv[i], "--") == 0) {
            used = i;
            g_have_after = true;
            g_after.assign(argv + i + 1, argv + argc);
            break;
          }
        }
      }
      app.parse(used, argv);
      return kExitOk;
    } catch (const CLI::ParseError& e) {
      const std::string name = e.get_name();
      if (name == "RuntimeError") return e.get_exit_code();
      if (name == "CallForHelp" || name == "CallForAllHelp" || name == "CallForVersion") {
        if (g_parse_only) return kExitOk;
        return app.exit(e);
      }
      message(e.what());
      std::string where = "numaperf";
      for (const CLI::App* sub : app.get_subcommands()) where += " " + sub->get_name();
      std::fprintf(stderr, "Run '%s --help' for usage.\n", where.c_str());
      return kExitUsage;
    }
  } catch (const std::bad_alloc&) {
    message("out of memory");
  } catch (const std::exception& e) {
    message(std::string("internal error: ") + e.what());
  } catch (...) {
    message("internal error");
  }
  return kExitUsage;
}

}  // namespace numaperf::cli
