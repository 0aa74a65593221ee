#include "report/text_render.h"

#include "report/fix_text.h"
#include "report/number_format.h"
#include "report/text_layout.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

namespace numaperf::report {

using nlohmann::json;

namespace {

constexpr const char* kBold = "\x1b[1m";
constexpr const char* kRed = "\x1b[1;31m";
constexpr const char* kCyan = "\x1b[36m";
constexpr const char* kGreen = "\x1b[32m";
constexpr const char* kReset = "\x1b[0m";

constexpr const char* kIndent = "   ";       // issue body
constexpr const char* kSubIndent = "     ";   // stack frames, evidence entries
constexpr size_t kMinWidth = 20;
constexpr int kMaxEvidenceDepth = 3;

class Writer {
 public:
  explicit Writer(const TextOptions& o) : opt_(o), width_(std::max(o.width, kMinWidth)) {}

  size_t width() const { return width_; }

  // Emits a laid-out line; the first `paint_len` bytes get `color`.
  void line(const std::string& text, const char* color = nullptr, size_t paint_len = SIZE_MAX) {
    std::string l = truncateRight(text, width_);
    if (opt_.color && color != nullptr && !l.empty()) {
      size_t n = std::min(paint_len, l.size());
      out_ += color;
      out_.append(l, 0, n);
      out_ += kReset;
      out_.append(l, n, std::string::npos);
    } else {
      out_ += l;
    }
    out_ += '\n';
  }

  void blank() { out_ += '\n'; }

  void wrapped(const std::string& text, const std::string& first, const std::string& next,
               const char* color = nullptr, size_t paint_len = SIZE_MAX) {
    for (const std::string& l : wrapText(text, width_, first, next)) {
      line(l, color, paint_len);
      color = nullptr;  // only the first line carries the painted label
    }
  }

  std::string take() { return std::move(out_); }

 private:
  const TextOptions& opt_;
  size_t width_;
  std::string out_;
};

// ---- header -----------------------------------------------------------------

std::string jsonScalar(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return v.get<std::string>();
    case json::value_t::number_float: return formatShortest(v.get<double>());
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::boolean:
    case json::value_t::null: return v.dump();
    case json::value_t::array: return "[" + std::to_string(v.size()) + " items]";
    case json::value_t::object: return "{" + std::to_string(v.size()) + " fields}";
    default: return "?";
  }
}

std::string thresholdsText(const json& thresholds) {
  if (!thresholds.is_object() || thresholds.empty()) return "(none recorded)";
  std::string s;
  for (auto it = thresholds.begin(); it != thresholds.end(); ++it) {
    if (!s.empty()) s += ", ";
    s += it.key() + " " + jsonScalar(it.value());
  }
  return s;
}

// Only what differs from "every function, the whole run".
void renderInstrumentation(const Profile& p, Writer& w) {
  if (!p.instrumentation) return;
  const Instrumentation& in = *p.instrumentation;
  if (!in.always_on) {
    std::string periods;
    for (const ProfiledPeriod& period : in.periods)
      periods += (periods.empty() ? "" : ", ") + formatFixed(period.start_ms, 1) + "-" +
                 formatFixed(period.end_ms, 1);
    std::string text = formatFixed(in.profiled_ms, 1) + " of " +
                       formatFixed(p.program.wall_ms, 1) + " ms in " +
                       std::to_string(in.periods.size()) +
                       (in.periods.size() == 1 ? " period" : " periods");
    if (!periods.empty()) text += " (" + periods + " ms)";
    w.wrapped(text, "profiled:   ", "            ");
    // How the periods came about, so that a reader of a saved report knows
    // what "profiled" meant (docs/switching.md, "Controls").
    std::string how;
    auto add = [&how](const std::string& part) { how += (how.empty() ? "" : "; ") + part; };
    if (!in.initially_on) add("started off (NUMAPERF_ACTIVE=0)");
    if (!in.active_regions.empty()) {
      std::string names;
      for (const std::string& r : in.active_regions) names += (names.empty() ? "" : ", ") + r;
      add("on inside regions " + names);
    }
    if (!in.toggle_signal.empty()) add("toggled by " + in.toggle_signal);
    if (in.switches_lost > 0)
      add(std::to_string(in.switches_lost) + " switches beyond the log (periods approximate)");
    if (!how.empty()) w.wrapped(how, "switched:   ", "            ");
  }
  size_t filtered = 0, instrumented = 0;
  for (const InstrumentedFunction& f : in.functions) {
    if (f.filtered) ++filtered;
    if (f.hooks > 0) ++instrumented;
  }
  if (filtered > 0)
    w.line("functions:  " + std::to_string(instrumented) + " instrumented, " +
           std::to_string(filtered) + " filtered out");
}

void renderHeader(const Profile& p, Writer& w) {
  const ProgramInfo& prog = p.program;
  w.line("numaperf NUMA report", kBold);
  w.line("command:    " + quoteCommand(prog.command));
  w.line("pid:        " + std::to_string(prog.pid));
  w.line("run time:   " + formatFixed(prog.wall_ms, 1) + " ms");
  w.line("threads:    " + std::to_string(prog.threads));
  if (prog.access_data) {
    w.line("accesses:   " + std::to_string(prog.total_accesses) + " instrumented");
  } else {
    w.line("accesses:   none (no instrumented code ran)");
  }
  w.wrapped(thresholdsText(p.thresholds), "thresholds: ", "            ");
  renderInstrumentation(p, w);
}

// ---- one issue --------------------------------------------------------------

std::string objectText(const ObjectInfo& o) {
  std::string kind = o.kind.empty() ? std::string("object") : o.kind;
  std::string s = kind;
  if (o.name) s += " '" + *o.name + "'";
  std::string size = std::to_string(o.size) + " bytes";
  if (o.size >= 1024) size += " (" + formatBytes(o.size) + ")";
  if (o.instances > 1) {
    s += ", " + std::to_string(o.instances) + " instances, largest " + size;
  } else {
    s += ", " + size;
  }
  return s;
}

void renderSite(const ObjectInfo& o, Writer& w) {
  const bool global = o.kind == "global";
  const std::string verb = global ? "defined" : "allocated";
  const SourceLocation& site = o.site;
  const std::string in = site.function.empty() ? std::string() : " in " + site.function;
  if (!site.file.empty()) {
    std::string after = site.line > 0 ? ":" + std::to_string(site.line) : std::string();
    w.line(fitPath(kIndent + verb + " at ", site.file, after + in, w.width()));
  } else if (!site.function.empty()) {
    w.line(kIndent + verb + in + " (no line information)");
  } else {
    w.line(kIndent + verb + " at an unknown site");
  }
}

std::string moduleText(const Frame& f) {
  return f.module.empty() ? std::string() : f.module + "+" + formatHex(f.module_offset);
}

void renderFrame(size_t index, const Frame& f, Writer& w) {
  const std::string num = kSubIndent + std::string("#") + std::to_string(index) + " ";
  const SourceLocation& loc = f.location;
  const std::string func = loc.function.empty() ? formatHex(f.pc) : loc.function;
  if (!loc.file.empty()) {
    std::string after = loc.line > 0 ? ":" + std::to_string(loc.line) : std::string();
    w.line(fitPath(num + func + " at ", loc.file, after, w.width()));
  } else if (!f.module.empty()) {
    w.line(fitPath(num + func + " (", moduleText(f), ")", w.width()));
  } else {
    w.line(num + func);
  }
}

void renderStack(const ObjectInfo& o, const TextOptions& opt, Writer& w) {
  if (o.stack.empty()) return;
  w.line(std::string(kIndent) + "stack:", kCyan);
  size_t shown = opt.max_frames == 0 ? o.stack.size() : std::min(opt.max_frames, o.stack.size());
  for (size_t i = 0; i < shown; ++i) renderFrame(i, o.stack[i], w);
  if (shown < o.stack.size()) {
    size_t more = o.stack.size() - shown;
    w.line(kSubIndent + std::string("... ") + std::to_string(more) + " more frame" +
           (more == 1 ? "" : "s"));
  }
}

// Arrays of scalars are listed inline (cut to the line width with the item
// count); arrays holding objects or arrays are summarised by their size.
std::string arrayText(const json& a, size_t room) {
  const std::string count = std::to_string(a.size()) + (a.size() == 1 ? " item" : " items");
  bool scalars = std::all_of(a.begin(), a.end(), [](const json& e) { return e.is_primitive(); });
  if (!scalars || a.empty()) return "[" + count + "]";
  std::string full = "[";
  for (size_t i = 0; i < a.size(); ++i) {
    if (i > 0) full += ", ";
    full += jsonScalar(a[i]);
  }
  full += "]";
  if (displayWidth(full) <= room) return full;
  const std::string tail = ", ... (" + count + ")]";
  std::string s = "[";
  for (size_t i = 0; i < a.size(); ++i) {
    std::string item = (i > 0 ? ", " : "") + jsonScalar(a[i]);
    if (displayWidth(s + item + tail) > room) break;
    s += item;
  }
  if (s == "[") return "[" + count + "]";
  return s + tail;
}

// One line per element of a list of records (page runs, access sites, words):
// a source location reads "function at file:line", other fields "key value".
void renderObjectList(const json& list, const std::string& indent, const std::string& key,
                      Writer& w) {
  constexpr size_t kMaxRows = 8;
  w.line(indent + key + ":");
  size_t shown = 0;
  for (const json& e : list) {
    if (shown == kMaxRows) break;
    ++shown;
    std::string row;
    auto add = [&row](const std::string& part) { row += (row.empty() ? "" : ", ") + part; };
    if (e.is_object() && e.contains("file") && e.contains("line")) {
      std::string where = jsonScalar(e["file"]) + ":" + jsonScalar(e["line"]);
      std::string func = e.contains("function") ? jsonScalar(e["function"]) : "";
      add(func.empty() ? where : func + " at " + where);
    }
    if (e.is_object()) {
      for (auto f = e.begin(); f != e.end(); ++f) {
        if (f.key() == "file" || f.key() == "line" || f.key() == "function") continue;
        const json& fv = f.value();
        add(f.key() + " " + (fv.is_array() ? arrayText(fv, w.width()) : jsonScalar(fv)));
      }
    } else {
      add(jsonScalar(e));
    }
    w.line(indent + "  " + row);
  }
  if (list.size() > shown)
    w.line(indent + "  ... " + std::to_string(list.size() - shown) + " more");
}

void renderEvidenceObject(const json& obj, const std::string& indent, int depth, Writer& w) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string prefix = indent + it.key() + ": ";
    const json& v = it.value();
    if (v.is_object() && !v.empty() && depth < kMaxEvidenceDepth) {
      w.line(indent + it.key() + ":");
      renderEvidenceObject(v, indent + "  ", depth + 1, w);
    } else if (v.is_array() && !v.empty() && v.front().is_object()) {
      renderObjectList(v, indent, it.key(), w);
    } else if (v.is_array()) {
      size_t used = displayWidth(prefix);
      w.line(prefix + arrayText(v, used < w.width() ? w.width() - used : 0));
    } else if (v.is_string()) {
      w.wrapped(v.get<std::string>(), prefix, indent + "  ");
    } else {
      w.line(prefix + jsonScalar(v));
    }
  }
}

void renderEvidence(const json& evidence, Writer& w) {
  if (!evidence.is_object() || evidence.empty()) return;
  w.line(std::string(kIndent) + "evidence:", kCyan);
  renderEvidenceObject(evidence, kSubIndent, 1, w);
}

void renderIssue(size_t rank, const Issue& issue, const TextOptions& opt, Writer& w) {
  const std::string label = "#" + std::to_string(rank) + " " + kindText(issue.kind);
  // Thread issues have their own units (docs/threads.md): migrations per
  // thread per second; imbalance as a plain ratio.
  const bool ratio = issue.kind == "load_imbalance";
  const char* unit = issue.kind == "thread_migration" ? " /s" : ratio ? "" : " /ms";
  std::string title = label + "  score " + formatFixed(issue.score, 1) + unit + " (threshold " +
                      formatShortest(issue.threshold) + ")";
  if (!ratio)
    title += "  normalized " + formatFixed(issue.normalized_score, 1) + " per 1000 accesses";
  w.line(title, kRed, label.size());
  // Issues about threads rather than data (migration, imbalance) carry an
  // object without a kind: no object lines then.
  if (!issue.object.kind.empty()) {
    w.line(std::string(kIndent) + "object: " + objectText(issue.object));
    renderSite(issue.object, w);
  }
  renderStack(issue.object, opt, w);
  renderEvidence(issue.evidence, w);
  if (!issue.fix.empty()) {
    const std::string fix_label = std::string(kIndent) + "fix: ";
    w.wrapped(fixSentence(issue.fix), fix_label, std::string(kIndent) + "     ", kGreen,
              fix_label.size());
  }
}

void renderIssues(const Profile& p, const TextOptions& opt, Writer& w) {
  const size_t total = p.issues.size();
  if (total == 0) {
    w.line("no NUMA issues above threshold", kBold);
    return;
  }
  const size_t shown = opt.top == 0 ? total : std::min(opt.top, total);
  std::string summary = std::to_string(total) + (total == 1 ? " issue" : " issues") +
                        " above threshold, most serious first";
  if (shown < total) summary += " (showing the top " + std::to_string(shown) + ")";
  w.line(summary, kBold);
  for (size_t i = 0; i < shown; ++i) {
    w.blank();
    renderIssue(i + 1, p.issues[i], opt, w);
  }
  if (shown < total) {
    w.blank();
    size_t more = total - shown;
    w.line("... " + std::to_string(more) + " more issue" + (more == 1 ? "" : "s") +
           " not shown");
  }
}

// ---- bandwidth signature ------------------------------------------------------

std::string sharesText(const char* kind, const SignatureShares& k) {
  std::string s = kind;
  s += "static " + formatFixed(k.static_share, 2) + "  local " + formatFixed(k.local, 2) +
       "  per-thread " + formatFixed(k.per_thread, 2) + "  interleaved " +
       formatFixed(k.interleaved, 2);
  if (k.static_share > 0 && k.static_thread) s += "  (static: thread " + std::to_string(*k.static_thread) + ")";
  return s;
}

constexpr size_t kSignatureObjectsShown = 3;

void renderSignature(const Profile& p, Writer& w) {
  if (!p.signature) return;
  const BandwidthSignature& sig = *p.signature;
  w.blank();
  w.line("bandwidth signature (access shares by traffic class; numaperf placement):", kBold);
  w.line("  reads:  " + sharesText("", sig.read));
  w.line("  writes: " + sharesText("", sig.write));
  size_t shown = std::min(sig.objects.size(), kSignatureObjectsShown);
  for (size_t i = 0; i < shown; ++i) {
    const ObjectSignature& o = sig.objects[i];
    double total = sig.read.accesses + sig.write.accesses;
    double share = total > 0 ? (o.read.accesses + o.write.accesses) / total : 0;
    w.line("  " + shortObjectLabel(o.object) + ": " + formatFixed(100 * share, 1) + "% of accesses");
    if (o.read.accesses > 0) w.line("    reads:  " + sharesText("", o.read));
    if (o.write.accesses > 0) w.line("    writes: " + sharesText("", o.write));
  }
}

void renderNotes(const Profile& p, Writer& w) {
  if (p.notes.empty()) return;
  w.blank();
  w.line("notes:", kBold);
  for (const std::string& note : p.notes) w.wrapped(note, "  - ", "    ");
}

}  // namespace

std::string shortObjectLabel(const ObjectInfo& o) {
  std::string s = o.kind.empty() ? std::string("object") : o.kind;
  if (o.name) s += " '" + *o.name + "'";
  if (!o.site.file.empty()) {
    size_t slash = o.site.file.rfind('/');
    s += " " + (slash == std::string::npos ? o.site.file : o.site.file.substr(slash + 1));
    if (o.site.line) s += ":" + std::to_string(o.site.line);
  }
  return s;
}

std::string renderText(const Profile& profile, const TextOptions& options) {
  Writer w(options);
  try {
    renderHeader(profile, w);
    w.blank();
    renderIssues(profile, options, w);
    renderSignature(profile, w);
    renderNotes(profile, w);
  } catch (...) {
    // Out of memory or a malformed evidence value: keep what was rendered.
  }
  try {
    return w.take();
  } catch (...) {
    return std::string();
  }
}

}  // namespace numaperf::report
