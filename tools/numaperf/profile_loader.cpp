#include "profile_loader.h"

#include "report/json_io.h"
#include "report/number_format.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <initializer_list>
#include <sys/stat.h>
#include <unistd.h>

namespace numaperf::cli {

using nlohmann::json;

namespace {

struct TooDeep {};

// "[json.exception.parse_error.101] parse error at line 1, ..." -> "parse
// error at line 1, ..." on one line.
std::string cleanParseMessage(const char* what) {
  std::string s = what;
  if (!s.empty() && s[0] == '[') {
    size_t end = s.find("] ");
    if (end != std::string::npos) s = s.substr(end + 2);
  }
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

bool inList(const std::string& key, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (key == k) return true;
  return false;
}

class UnknownWalker {
 public:
  explicit UnknownWalker(size_t limit) : limit_(limit) {}

  void top(const json& doc) {
    if (!doc.is_object()) return;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      const std::string& k = it.key();
      if (k == "program") {
        fields(it.value(), "program",
               {"command", "pid", "wall_ms", "score_ms", "hook_time_share", "threads", "total_accesses", "access_data",
                "memory_limit_mib", "detail_dropped"});
      } else if (k == "issues" && it.value().is_array()) {
        const json& issues = it.value();
        for (size_t i = 0; i < issues.size() && !full(); ++i)
          issue(issues[i], "issues[" + std::to_string(i) + "]");
      } else if (k == "instrumentation") {
        instrumentation(it.value());
      } else if (!inList(k, {"schema_version", "thresholds", "notes", "issues", "threads", "imbalance",
                             "bandwidth_signature"})) {
        add(k);
      }
    }
  }

  std::vector<std::string> take() { return std::move(found_); }

 private:
  bool full() const { return found_.size() >= limit_; }
  void add(const std::string& path) {
    if (!full()) found_.push_back(path);
  }

  void fields(const json& obj, const std::string& path, std::initializer_list<const char*> keys) {
    if (!obj.is_object()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!inList(it.key(), keys)) add(path + "." + it.key());
  }

  void issue(const json& obj, const std::string& path) {
    if (!obj.is_object()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& k = it.key();
      if (k == "object") {
        object(it.value(), path + ".object");
      } else if (!inList(k, {"kind", "score", "normalized_score", "threshold", "fix",
                             "evidence"})) {
        add(path + "." + k);
      }
    }
  }

  void instrumentation(const json& obj) {
    if (!obj.is_object()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& k = it.key();
      const std::string path = "instrumentation." + k;
      if (k == "profiling") {
        fields(it.value(), path,
               {"initially_on", "active_regions", "toggle_signal", "always_on", "profiled_ms",
                "periods", "switches_lost"});
      } else if (k == "functions" && it.value().is_array()) {
        const json& fns = it.value();
        for (size_t i = 0; i < fns.size() && !full(); ++i)
          fields(fns[i], path + "[" + std::to_string(i) + "]",
                 {"name", "function", "file", "line", "hooks", "filtered_accesses", "filtered",
                  "entries", "hook_calls", "hook_calls_counted", "first_thread"});
      } else {
        add(path);
      }
    }
  }

  void object(const json& obj, const std::string& path) {
    if (!obj.is_object()) return;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& k = it.key();
      if (k == "site") {
        fields(it.value(), path + ".site", {"file", "line", "function"});
      } else if (k == "stack" && it.value().is_array()) {
        const json& stack = it.value();
        for (size_t i = 0; i < stack.size() && !full(); ++i)
          fields(stack[i], path + ".stack[" + std::to_string(i) + "]",
                 {"pc", "module", "offset", "file", "line", "function"});
      } else if (!inList(k, {"kind", "name", "size", "instances", "stack"})) {
        add(path + "." + k);
      }
    }
  }

  size_t limit_;
  std::vector<std::string> found_;
};

}  // namespace

std::vector<std::string> unknownFields(const json& doc, size_t limit) {
  UnknownWalker w(limit);
  w.top(doc);
  return w.take();
}

std::optional<LoadedProfile> parseProfile(const std::string& text, std::string* error) {
  std::string local;
  if (error == nullptr) error = &local;
  try {
    LoadedProfile loaded;
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      *error = "empty file, expected a JSON profile";
      return std::nullopt;
    }
    try {
      json::parser_callback_t limit_depth = [](int depth, json::parse_event_t, json&) {
        if (depth > kMaxJsonDepth) throw TooDeep();
        return true;
      };
      loaded.raw = json::parse(text, limit_depth);
    } catch (const TooDeep&) {
      *error = "invalid profile: JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
               " levels";
      return std::nullopt;
    } catch (const json::exception& e) {
      *error = "invalid JSON (truncated or not a profile?): " + cleanParseMessage(e.what());
      return std::nullopt;
    }
    std::string why;
    std::optional<report::Profile> profile = report::fromJson(loaded.raw, &why);
    if (!profile) {
      *error = "invalid profile: " + why;
      return std::nullopt;
    }
    loaded.profile = std::move(*profile);
    loaded.unknown_fields = unknownFields(loaded.raw);
    return loaded;
  } catch (const std::bad_alloc&) {
    *error = "out of memory while reading the profile";
  } catch (const std::exception& e) {
    *error = std::string("cannot read the profile: ") + e.what();
  }
  return std::nullopt;
}

std::optional<LoadedProfile> loadProfile(const std::string& path, std::string* error) {
  std::string local;
  if (error == nullptr) error = &local;
  const bool use_stdin = path == "-";
  const std::string name = use_stdin ? std::string("<stdin>") : path;
  int fd = use_stdin ? 0 : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = name + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  auto close_fd = [&] {
    if (!use_stdin) close(fd);
  };
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    *error = name + ": cannot stat: " + std::strerror(errno);
    close_fd();
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    *error = name + ": is a directory, expected a JSON profile";
    close_fd();
    return std::nullopt;
  }
  const std::string too_big = name + ": larger than " + report::formatBytes(kMaxProfileBytes) +
                              ", refusing to read it as a profile";
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxProfileBytes) {
    *error = too_big + " (" + report::formatBytes(static_cast<uint64_t>(st.st_size)) + ")";
    close_fd();
    return std::nullopt;
  }
  std::string text;
  try {
    char buf[65536];
    for (;;) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        *error = name + ": cannot read: " + std::strerror(errno);
        close_fd();
        return std::nullopt;
      }
      if (n == 0) break;
      text.append(buf, static_cast<size_t>(n));
      if (text.size() > kMaxProfileBytes) {
        *error = too_big;
        close_fd();
        return std::nullopt;
      }
    }
  } catch (const std::bad_alloc&) {
    *error = name + ": out of memory while reading";
    close_fd();
    return std::nullopt;
  }
  close_fd();
  std::string why;
  std::optional<LoadedProfile> loaded = parseProfile(text, &why);
  if (!loaded) *error = name + ": " + why;
  return loaded;
}

}  // namespace numaperf::cli
