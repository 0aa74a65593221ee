#include "report/html_render.h"
#include "report/text_layout.h"

#include "report/compare.h"
#include "report/fix_text.h"
#include "report/number_format.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <vector>

namespace numaperf::report {

using nlohmann::json;

namespace {

constexpr size_t kMaxChartBars = 40;
constexpr size_t kMaxMapRows = 64;
constexpr size_t kMaxMapCols = 64;
constexpr size_t kMaxShareRows = 32;

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v, int decimals = 1) { return formatFixed(v, decimals); }

std::string scalarText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return formatShortest(v.get<double>());
  if (v.is_array()) return "[" + std::to_string(v.size()) + " items]";
  if (v.is_object()) return "{" + std::to_string(v.size()) + " fields}";
  return v.dump();
}

std::string shortSite(const ObjectInfo& o) {
  if (o.kind.empty()) return "";
  std::string text = o.name ? *o.name : std::string();
  const SourceLocation& s = o.site;
  if (!s.file.empty()) {
    size_t slash = s.file.find_last_of('/');
    std::string base = slash == std::string::npos ? s.file : s.file.substr(slash + 1);
    std::string where = base + (s.line ? ":" + std::to_string(s.line) : std::string());
    text = text.empty() ? where : text + " (" + where + ")";
  } else if (text.empty()) {
    text = s.function.empty() ? o.kind : s.function;
  }
  return text;
}

const char* kStyle = R"CSS(
:root{--fg:#1d1f21;--muted:#5f6368;--bg:#fff;--line:#d0d4d9;--bar:#c0392b;--ok:#2e7d32;--accent:#1565c0}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0;padding:24px;max-width:1100px}
h1{font-size:22px;margin:0 0 12px}h2{font-size:18px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
table{border-collapse:collapse}td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:600}
.issue{border:1px solid var(--line);border-left:4px solid var(--bar);border-radius:4px;padding:10px 14px;margin:12px 0}
.issue .score{color:var(--bar);font-weight:600}
.muted{color:var(--muted)}
.fix{color:var(--ok);font-weight:600}
details summary{cursor:pointer;color:var(--accent)}
ol.stack{margin:4px 0 4px 0;padding-left:28px}
svg text{font:12px system-ui,sans-serif;fill:var(--fg)}
.controls{margin:8px 0}
.hidden{display:none}
)CSS";

const char* kScript = R"JS(
(function(){
  var issues=document.querySelectorAll('article.issue');
  var sel=document.getElementById('kind-filter');
  if(sel){sel.addEventListener('change',function(){
    for(var i=0;i<issues.length;i++){
      var show=sel.value===''||issues[i].getAttribute('data-kind')===sel.value;
      issues[i].classList.toggle('hidden',!show);
    }
  });}
  var btn=document.getElementById('expand-stacks');
  if(btn){btn.addEventListener('click',function(){
    var d=document.querySelectorAll('details.stack'),open=btn.getAttribute('data-open')!=='1';
    for(var i=0;i<d.length;i++){d[i].open=open;}
    btn.setAttribute('data-open',open?'1':'0');
    btn.textContent=open?'collapse all stacks':'expand all stacks';
  });}
  document.body.setAttribute('data-ready','1');
})();
)JS";

// ---- summary -----------------------------------------------------------------

void renderSummary(const Profile& p, std::string& out) {
  const ProgramInfo& prog = p.program;
  out += "<section id=\"summary\"><table>\n";
  auto row = [&](const char* k, const std::string& v) {
    out += "<tr><th>" + std::string(k) + "</th><td>" + v + "</td></tr>\n";
  };
  row("command", "<code>" + esc(quoteCommand(prog.command)) + "</code>");
  row("pid", std::to_string(prog.pid));
  row("run time", num(prog.wall_ms) + " ms");
  row("threads", std::to_string(prog.threads));
  row("accesses", prog.access_data ? std::to_string(prog.total_accesses) + " instrumented"
                                   : std::string("none (no instrumented code ran)"));
  std::string th;
  if (p.thresholds.is_object()) {
    for (auto it = p.thresholds.begin(); it != p.thresholds.end(); ++it) {
      if (!th.empty()) th += ", ";
      th += esc(it.key()) + " " + esc(scalarText(it.value()));
    }
  }
  row("thresholds", th.empty() ? std::string("(none recorded)") : th);
  out += "</table></section>\n";
}

// ---- bar chart: score / threshold on a log axis --------------------------------

void renderChart(const Profile& p, size_t shown, std::string& out) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < shown && idx.size() < kMaxChartBars; ++i) {
    const Issue& is = p.issues[i];
    if (std::isfinite(is.score) && std::isfinite(is.threshold) && is.threshold > 0 &&
        is.score > 0)
      idx.push_back(i);
  }
  if (idx.empty()) return;
  double max_ratio = 1;
  double min_ratio = 1;
  for (size_t i : idx) {
    max_ratio = std::max(max_ratio, p.issues[i].score / p.issues[i].threshold);
    min_ratio = std::min(min_ratio, p.issues[i].score / p.issues[i].threshold);
  }
  int lo = static_cast<int>(std::floor(std::log10(min_ratio)));
  int hi = static_cast<int>(std::ceil(std::log10(max_ratio)));
  lo = std::max(std::min(lo, 0), -6);
  hi = std::min(std::max(hi, lo + 1), 15);
  const int label_w = 300, plot_w = 520, row_h = 22, top = 24;
  const int width = label_w + plot_w + 90;
  const int height = top + row_h * static_cast<int>(idx.size()) + 24;
  auto xpos = [&](double ratio) {
    double l = std::log10(std::max(ratio, std::pow(10.0, lo)));
    return label_w + (l - lo) / (hi - lo) * plot_w;
  };
  out += "<section id=\"chart\"><h2>Scores against thresholds</h2>\n";
  out += "<p class=\"muted\">Each bar is an issue's score divided by its threshold (log scale); "
         "the red line is the threshold.</p>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"scores against "
         "thresholds\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(height) + "\">\n";
  for (int d = lo; d <= hi; ++d) {
    double x = xpos(std::pow(10.0, d));
    out += "<line x1=\"" + num(x) + "\" y1=\"" + std::to_string(top - 6) + "\" x2=\"" + num(x) +
           "\" y2=\"" + std::to_string(height - 20) + "\" stroke=\"#e0e0e0\"/>";
    std::string label = d >= 0 ? formatShortest(std::pow(10.0, d)) + "x"
                               : formatShortest(std::pow(10.0, d)) + "x";
    out += "<text x=\"" + num(x) + "\" y=\"" + std::to_string(height - 6) +
           "\" text-anchor=\"middle\">" + label + "</text>\n";
  }
  for (size_t r = 0; r < idx.size(); ++r) {
    const Issue& is = p.issues[idx[r]];
    const double ratio = is.score / is.threshold;
    const int y = top + static_cast<int>(r) * row_h;
    std::string label = "#" + std::to_string(idx[r] + 1) + " " + is.kind;
    std::string site = shortSite(is.object);
    if (!site.empty()) label += " " + site;
    if (label.size() > 44) label = label.substr(0, 41) + "...";
    out += "<g class=\"bar\" data-issue=\"" + std::to_string(idx[r] + 1) + "\"><title>" +
           esc(is.kind) + ": score " + num(is.score) + " /ms, threshold " +
           formatShortest(is.threshold) + " (" + num(ratio, 2) + "x)</title>";
    out += "<text x=\"" + std::to_string(label_w - 8) + "\" y=\"" + std::to_string(y + 15) +
           "\" text-anchor=\"end\">" + esc(label) + "</text>";
    double x0 = label_w, x1 = xpos(ratio);
    out += "<rect x=\"" + num(x0) + "\" y=\"" + std::to_string(y + 3) + "\" width=\"" +
           num(std::max(1.0, x1 - x0)) + "\" height=\"" + std::to_string(row_h - 6) +
           "\" fill=\"" + (ratio >= 1 ? "#c0392b" : "#7f8c8d") + "\"/>";
    out += "<text x=\"" + num(std::max(x0, x1) + 6) + "\" y=\"" + std::to_string(y + 15) + "\">" +
           num(ratio, ratio >= 10 ? 0 : 2) + "x</text></g>\n";
  }
  double tx = xpos(1.0);
  out += "<line class=\"threshold\" x1=\"" + num(tx) + "\" y1=\"" + std::to_string(top - 10) +
         "\" x2=\"" + num(tx) + "\" y2=\"" + std::to_string(height - 20) +
         "\" stroke=\"#d32f2f\" stroke-width=\"2\"/>";
  out += "<text x=\"" + num(tx + 4) + "\" y=\"" + std::to_string(top - 10) +
         "\">threshold</text>\n</svg></section>\n";
}

// ---- page x thread map -----------------------------------------------------------

// Turns evidence.pages into rows (pages) x columns (threads) of counts.
// Accepted shapes:
//   {"threads": [...], "counts": [[per thread] per page], "first_page": n}
//   [{"page": n, "counts"|"accesses": [per thread]}, ...]
//   [{"page": n, "threads": [thread ids]}, ...]          (presence only)
//   [[per thread], ...]
struct PageMap {
  std::vector<std::string> row_labels;
  std::vector<std::string> col_labels;
  std::vector<std::vector<double>> cells;
  bool presence = false;
  std::string unit = "accesses";
};

bool numbers(const json& a, std::vector<double>* out) {
  if (!a.is_array()) return false;
  out->clear();
  for (const json& v : a) {
    if (!v.is_number()) return false;
    double d = v.get<double>();
    out->push_back(std::isfinite(d) && d > 0 ? d : 0);
  }
  return true;
}

// evidence.page_threads as the runtime writes it: page ranges and the thread
// that accesses them ({"pages": "0-1364", "thread": 1}; thread null = shared
// by several). Becomes one row per page (folded later), one column per thread.
bool readPageThreads(const json& ranges, PageMap* m) {
  if (!ranges.is_array() || ranges.empty()) return false;
  struct Range { uint64_t first, last; std::string thread; };
  std::vector<Range> list;
  std::vector<std::string> threads;
  uint64_t max_page = 0;
  for (const json& e : ranges) {
    if (!e.is_object() || !e.contains("pages") || !e["pages"].is_string()) return false;
    const std::string text = e["pages"].get<std::string>();
    unsigned long long a = 0, b = 0;
    char extra = 0;
    int n = std::sscanf(text.c_str(), "%llu-%llu%c", &a, &b, &extra);
    if (n == 1) b = a;
    else if (n != 2 || b < a) return false;
    if (b > (1ull << 40)) return false;
    // A thread index, or a word (null, "several") for pages of several threads.
    std::string t = "shared";
    if (e.contains("thread")) {
      const json& th = e["thread"];
      if (th.is_number_integer() && th.get<int64_t>() >= 0)
        t = std::to_string(th.get<int64_t>());
      else if (th.is_string() && !th.get<std::string>().empty())
        t = th.get<std::string>();
    }
    if (std::find(threads.begin(), threads.end(), t) == threads.end()) threads.push_back(t);
    list.push_back({a, b, t});
    max_page = std::max<uint64_t>(max_page, b);
  }
  // Thread numbers in numeric order, then the words.
  std::sort(threads.begin(), threads.end(), [](const std::string& x, const std::string& y) {
    bool nx = std::isdigit(static_cast<unsigned char>(x[0])) != 0;
    bool ny = std::isdigit(static_cast<unsigned char>(y[0])) != 0;
    if (nx != ny) return nx;
    return x.size() != y.size() ? x.size() < y.size() : x < y;
  });
  if (threads.size() > kMaxMapCols) threads.resize(kMaxMapCols);
  const uint64_t pages = max_page + 1;
  const uint64_t per = (pages + kMaxMapRows - 1) / kMaxMapRows;
  const size_t rows = static_cast<size_t>((pages + per - 1) / per);
  m->cells.assign(rows, std::vector<double>(threads.size(), 0));
  for (const Range& r : list) {
    auto col = std::find(threads.begin(), threads.end(), r.thread);
    if (col == threads.end()) continue;
    size_t c = static_cast<size_t>(col - threads.begin());
    for (uint64_t row = r.first / per; row <= r.last / per; ++row) {
      uint64_t lo = std::max(r.first, row * per), hi = std::min(r.last, row * per + per - 1);
      m->cells[row][c] += static_cast<double>(hi - lo + 1);
    }
  }
  for (size_t row = 0; row < rows; ++row) {
    uint64_t lo = row * per, hi = std::min(pages - 1, lo + per - 1);
    m->row_labels.push_back(lo == hi ? std::to_string(lo)
                                     : std::to_string(lo) + "-" + std::to_string(hi));
  }
  m->col_labels = threads;
  m->unit = "pages";
  return true;
}

bool readPageMap(const json& pages, PageMap* m) {
  std::vector<std::vector<double>> rows;
  std::vector<std::string> labels;
  size_t cols = 0;
  std::vector<std::string> col_labels;
  if (pages.is_object()) {
    const json* counts = pages.contains("counts") ? &pages["counts"] : nullptr;
    if (counts == nullptr || !counts->is_array()) return false;
    int64_t first = pages.contains("first_page") && pages["first_page"].is_number_integer()
                        ? pages["first_page"].get<int64_t>()
                        : 0;
    for (size_t i = 0; i < counts->size(); ++i) {
      std::vector<double> r;
      if (!numbers((*counts)[i], &r)) return false;
      rows.push_back(std::move(r));
      labels.push_back(std::to_string(first + static_cast<int64_t>(i)));
    }
    if (pages.contains("threads") && pages["threads"].is_array())
      for (const json& t : pages["threads"]) col_labels.push_back(scalarText(t));
  } else if (pages.is_array()) {
    bool presence = false;
    for (size_t i = 0; i < pages.size(); ++i) {
      const json& e = pages[i];
      std::vector<double> r;
      std::string label = std::to_string(i);
      if (e.is_array()) {
        if (!numbers(e, &r)) return false;
      } else if (e.is_object()) {
        if (e.contains("page")) label = scalarText(e["page"]);
        const char* key = e.contains("counts") ? "counts" : e.contains("accesses") ? "accesses" : nullptr;
        if (key != nullptr) {
          if (!numbers(e[key], &r)) return false;
        } else if (e.contains("threads") && e["threads"].is_array()) {
          presence = true;
          for (const json& t : e["threads"]) {
            if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() >= 4096)
              return false;
            size_t tid = static_cast<size_t>(t.get<int64_t>());
            if (r.size() <= tid) r.resize(tid + 1, 0);
            r[tid] = 1;
          }
        } else {
          return false;
        }
      } else {
        return false;
      }
      rows.push_back(std::move(r));
      labels.push_back(label);
    }
    m->presence = presence;
  } else {
    return false;
  }
  for (const auto& r : rows) cols = std::max(cols, r.size());
  if (rows.empty() || cols == 0) return false;
  for (auto& r : rows) r.resize(cols, 0);
  if (col_labels.size() != cols) {
    col_labels.clear();
    for (size_t c = 0; c < cols; ++c) col_labels.push_back(std::to_string(c));
  }
  // Fold rows into at most kMaxMapRows buckets; cut columns at kMaxMapCols.
  size_t per = (rows.size() + kMaxMapRows - 1) / kMaxMapRows;
  size_t ncols = std::min(cols, kMaxMapCols);
  for (size_t start = 0; start < rows.size(); start += per) {
    size_t end = std::min(rows.size(), start + per);
    std::vector<double> sum(ncols, 0);
    for (size_t r = start; r < end; ++r)
      for (size_t c = 0; c < ncols; ++c) sum[c] += rows[r][c];
    m->cells.push_back(std::move(sum));
    m->row_labels.push_back(end - start == 1 ? labels[start]
                                             : labels[start] + "-" + labels[end - 1]);
  }
  col_labels.resize(ncols);
  m->col_labels = std::move(col_labels);
  return true;
}

void renderPageMap(const json& evidence, std::string& out) {
  if (!evidence.is_object()) return;
  PageMap m;
  if (evidence.contains("page_threads")) {
    if (!readPageThreads(evidence["page_threads"], &m)) return;
  } else if (evidence.contains("pages")) {
    if (!readPageMap(evidence["pages"], &m)) return;
  } else {
    return;
  }
  double max_v = 0;
  for (const auto& r : m.cells)
    for (double v : r) max_v = std::max(max_v, v);
  if (max_v <= 0) return;
  const int cell = 14, left = 90, top = 36;
  const int cols = static_cast<int>(m.col_labels.size());
  const int rows = static_cast<int>(m.cells.size());
  const int width = left + cols * cell + 20, height = top + rows * cell + 10;
  const std::string what =
      m.unit == "pages" ? "Which thread accesses which pages of the object (rows: pages, "
                          "columns: threads; shared = several threads)"
                        : "Accesses by page (rows) and thread (columns)" +
                              std::string(m.presence ? ", marked where a thread touched the page"
                                                     : "");
  out += "<div class=\"pagemap\"><p class=\"muted\">" + esc(what) +
         ":</p>\n<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"page x thread "
         "map\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) + "\">";
  out += "<text x=\"" + std::to_string(left) + "\" y=\"12\">thread</text>";
  for (int c = 0; c < cols; ++c)
    if (cols <= 16 || c % 4 == 0)
      out += "<text x=\"" + std::to_string(left + c * cell + cell / 2) + "\" y=\"" +
             std::to_string(top - 6) + "\" text-anchor=\"middle\">" + esc(m.col_labels[c]) +
             "</text>";
  for (int r = 0; r < rows; ++r) {
    int y = top + r * cell;
    if (rows <= 16 || r % 4 == 0)
      out += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(y + cell - 3) +
             "\" text-anchor=\"end\">" + esc(m.row_labels[r]) + "</text>";
    for (int c = 0; c < cols; ++c) {
      double v = m.cells[r][c];
      double t = v <= 0 ? 0 : std::log1p(v) / std::log1p(max_v);
      int shade = static_cast<int>(255 - t * 200);
      char color[16];
      std::snprintf(color, sizeof color, "#ff%02x%02x", shade, shade);
      out += "<rect class=\"cell\" x=\"" + std::to_string(left + c * cell) + "\" y=\"" +
             std::to_string(y) + "\" width=\"" + std::to_string(cell - 1) + "\" height=\"" +
             std::to_string(cell - 1) + "\" fill=\"" + (v <= 0 ? "#f4f4f4" : color) +
             "\"><title>page " + esc(m.row_labels[r]) + ", thread " + esc(m.col_labels[c]) +
             ": " + formatShortest(v) + " " + m.unit + "</title></rect>";
    }
    out += "\n";
  }
  out += "</svg></div>\n";
}

// ---- per-thread-type shares ---------------------------------------------------

struct Share {
  std::string name;
  double value = 0;
};

bool readShares(const json& raw, std::vector<Share>* shares) {
  if (!raw.is_object() || !raw.contains("imbalance")) return false;
  const json& imb = raw["imbalance"];
  const json* list = nullptr;
  if (imb.is_array()) {
    list = &imb;
  } else if (imb.is_object()) {
    for (const char* key : {"thread_types", "types", "shares"})
      if (imb.contains(key) && imb[key].is_array()) list = &imb[key];
  }
  if (list == nullptr) return false;
  for (const json& e : *list) {
    if (!e.is_object()) return false;
    Share s;
    for (const char* key : {"name", "type", "routine", "start_routine"})
      if (e.contains(key) && e[key].is_string()) {
        s.name = e[key].get<std::string>();
        break;
      }
    bool found = false;
    for (const char* key : {"share", "accesses", "work", "value"})
      if (e.contains(key) && e[key].is_number()) {
        s.value = e[key].get<double>();
        found = true;
        break;
      }
    if (!found || !std::isfinite(s.value) || s.value < 0) return false;
    if (s.name.empty()) s.name = "(unnamed)";
    shares->push_back(std::move(s));
    if (shares->size() >= kMaxShareRows) break;
  }
  return !shares->empty();
}

void renderImbalance(const HtmlOptions& opt, std::string& out) {
  if (opt.raw == nullptr) return;
  std::vector<Share> shares;
  if (!readShares(*opt.raw, &shares)) return;
  double total = 0;
  for (const Share& s : shares) total += s.value;
  if (total <= 0) return;
  static const char* kColors[] = {"#1565c0", "#c0392b", "#2e7d32", "#f39c12", "#8e44ad",
                                  "#16a085", "#7f8c8d", "#d35400"};
  const int width = 820, bar_h = 28;
  out += "<section id=\"imbalance\"><h2>Work by thread type</h2>\n<svg xmlns=\"http://www.w3.org/"
         "2000/svg\" role=\"img\" aria-label=\"shares by thread type\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(bar_h + 4) + "\">";
  double x = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    double w = shares[i].value / total * width;
    out += "<rect x=\"" + num(x) + "\" y=\"2\" width=\"" + num(w) + "\" height=\"" +
           std::to_string(bar_h) + "\" fill=\"" + kColors[i % 8] + "\"><title>" +
           esc(shares[i].name) + ": " + num(shares[i].value / total * 100) + "%</title></rect>";
    x += w;
  }
  out += "</svg>\n<table class=\"shares\">";
  for (size_t i = 0; i < shares.size(); ++i)
    out += "<tr><td><span style=\"color:" + std::string(kColors[i % 8]) + "\">&#9632;</span> " +
           esc(shares[i].name) + "</td><td>" + num(shares[i].value / total * 100) + "%</td></tr>";
  out += "</table></section>\n";
}

// ---- issues -------------------------------------------------------------------

void renderEvidenceTable(const json& ev, std::string& out) {
  if (!ev.is_object() || ev.empty()) return;
  out += "<table class=\"evidence\">";
  for (auto it = ev.begin(); it != ev.end(); ++it) {
    if ((it.key() == "pages" || it.key() == "page_threads") && !it.value().is_primitive())
      continue;  // drawn as a map
    std::string v;
    const json& val = it.value();
    if (val.is_array() && val.size() <= 16 &&
        std::all_of(val.begin(), val.end(), [](const json& e) { return e.is_primitive(); })) {
      for (const json& e : val) v += (v.empty() ? "" : ", ") + scalarText(e);
      v = "[" + v + "]";
    } else if (val.is_object() && val.size() <= 8) {
      for (auto f = val.begin(); f != val.end(); ++f)
        v += (v.empty() ? "" : ", ") + f.key() + ": " + scalarText(f.value());
    } else {
      v = scalarText(val);
    }
    out += "<tr><th>" + esc(it.key()) + "</th><td class=\"mono\">" + esc(v) + "</td></tr>";
  }
  out += "</table>\n";
}

void renderIssue(size_t rank, const Issue& is, std::string& out) {
  out += "<article class=\"issue\" id=\"issue-" + std::to_string(rank) + "\" data-kind=\"" +
         esc(is.kind) + "\" data-score=\"" + num(is.score) + "\">\n";
  out += "<h3>#" + std::to_string(rank) + " " + esc(kindText(is.kind)) +
         " &nbsp;<span class=\"score\">score " + num(is.score) + " /ms</span> (threshold " +
         formatShortest(is.threshold) + ") &nbsp;<span class=\"muted\">normalized " +
         num(is.normalized_score) + " per 1000 accesses</span></h3>\n";
  const ObjectInfo& o = is.object;
  if (!o.kind.empty()) {
    std::string obj = esc(o.kind);
    if (o.name) obj += " <code>" + esc(*o.name) + "</code>";
    std::string size = std::to_string(o.size) + " bytes";
    if (o.size >= 1024) size += " (" + formatBytes(o.size) + ")";
    obj += o.instances > 1 ? ", " + std::to_string(o.instances) + " instances, largest " + size
                           : ", " + size;
    out += "<p class=\"object\">object: " + obj + "</p>\n";
    const SourceLocation& s = o.site;
    std::string verb = o.kind == "global" ? "defined" : "allocated";
    std::string where;
    if (!s.file.empty())
      where = " at <code>" + esc(s.file) + (s.line ? ":" + std::to_string(s.line) : "") + "</code>";
    if (!s.function.empty()) where += " in <code>" + esc(s.function) + "</code>";
    if (where.empty()) where = " at an unknown site";
    out += "<p class=\"site\">" + verb + where + "</p>\n";
  }
  if (!o.stack.empty()) {
    out += "<details class=\"stack\"><summary>stack (" + std::to_string(o.stack.size()) +
           (o.stack.size() == 1 ? " frame" : " frames") + ")</summary><ol class=\"stack\" start=\"0\">";
    for (const Frame& f : o.stack) {
      std::string fn = f.location.function.empty() ? formatHex(f.pc) : f.location.function;
      std::string loc;
      if (!f.location.file.empty())
        loc = " at " + f.location.file +
              (f.location.line ? ":" + std::to_string(f.location.line) : "");
      else if (!f.module.empty())
        loc = " (" + f.module + "+" + formatHex(f.module_offset) + ")";
      out += "<li><code>" + esc(fn) + "</code>" + esc(loc) + "</li>";
    }
    out += "</ol></details>\n";
  }
  renderEvidenceTable(is.evidence, out);
  renderPageMap(is.evidence, out);
  if (!is.fix.empty())
    out += "<p class=\"fix\">fix: " + esc(fixSentence(is.fix)) + "</p>\n";
  out += "</article>\n";
}

std::string render(const Profile& p, const HtmlOptions& opt) {
  const size_t total = p.issues.size();
  const size_t shown = opt.top == 0 ? total : std::min(opt.top, total);
  std::string out;
  out.reserve(16384 + shown * 4096);
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  out += "<title>numaperf report: " + esc(quoteCommand(p.program.command)) + "</title>\n";
  out += "<style>" + std::string(kStyle) + "</style></head>\n";
  out += "<body data-issues=\"" + std::to_string(total) + "\">\n<h1>numaperf NUMA report</h1>\n";
  renderSummary(p, out);
  renderChart(p, shown, out);
  renderImbalance(opt, out);
  out += "<section id=\"issues\"><h2>";
  if (total == 0) {
    out += "No NUMA issues above threshold</h2>\n";
  } else {
    out += std::to_string(total) + (total == 1 ? " issue" : " issues") +
           " above threshold, most serious first";
    if (shown < total) out += " (showing the top " + std::to_string(shown) + ")";
    out += "</h2>\n<div class=\"controls\"><label>kind <select id=\"kind-filter\"><option "
           "value=\"\">all</option>";
    std::vector<std::string> kinds;
    for (size_t i = 0; i < shown; ++i)
      if (std::find(kinds.begin(), kinds.end(), p.issues[i].kind) == kinds.end())
        kinds.push_back(p.issues[i].kind);
    for (const std::string& k : kinds)
      out += "<option value=\"" + esc(k) + "\">" + esc(kindText(k)) + "</option>";
    out += "</select></label> <button type=\"button\" id=\"expand-stacks\">expand all "
           "stacks</button></div>\n";
    for (size_t i = 0; i < shown; ++i) renderIssue(i + 1, p.issues[i], out);
    if (shown < total)
      out += "<p class=\"muted\">... " + std::to_string(total - shown) + " more not shown</p>\n";
  }
  out += "</section>\n";
  if (!p.notes.empty()) {
    out += "<section id=\"notes\"><h2>Notes</h2><ul>";
    for (const std::string& n : p.notes) out += "<li>" + esc(n) + "</li>";
    out += "</ul></section>\n";
  }
  out += "<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return out;
}

}  // namespace

std::string renderHtml(const Profile& profile, const HtmlOptions& options) {
  try {
    return render(profile, options);
  } catch (...) {
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>numaperf report</title>"
           "</head><body><p>numaperf: the report could not be rendered.</p></body></html>\n";
  }
}

}  // namespace numaperf::report
