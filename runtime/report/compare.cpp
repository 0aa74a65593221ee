#include "report/compare.h"

#include "report/number_format.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace numaperf::report {

namespace {

constexpr int kLevels = 3;

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool isGlobal(const ObjectInfo& o) { return o.kind == "global" && o.name.has_value(); }

// Keys from the most to the least precise. Level 0 is the full identity;
// level 1 forgives a different directory (another checkout or build
// machine); level 2 also forgives a different line (edited source).
std::string matchKey(const Issue& issue, int level) {
  const ObjectInfo& o = issue.object;
  const SourceLocation& s = o.site;
  std::string key = issue.kind + '\x1f' + o.kind + '\x1f';
  if (isGlobal(o)) {
    key += *o.name;
    if (level == 0) key += '\x1f' + s.file;
    if (level == 1) key += '\x1f' + baseName(s.file);
    return key;
  }
  key += level == 0 ? s.file : baseName(s.file);
  if (level < 2) key += '\x1f' + std::to_string(s.line);
  key += '\x1f' + s.function;
  return key;
}

double metricValue(const Issue& issue, Metric metric) {
  return metric == Metric::kScore ? issue.score : issue.normalized_score;
}

bool checkValues(const Profile& p, const char* which, Metric metric, std::string* error) {
  for (size_t i = 0; i < p.issues.size(); ++i) {
    if (!std::isfinite(metricValue(p.issues[i], metric))) {
      *error = std::string(which) + " issues[" + std::to_string(i) + "]." + metricName(metric) +
               " is not a finite number";
      return false;
    }
  }
  return true;
}

int groupRank(ChangeStatus s) {
  switch (s) {
    case ChangeStatus::kRegressed: return 0;
    case ChangeStatus::kNew: return 1;
    case ChangeStatus::kImproved: return 2;
    case ChangeStatus::kFixed: return 3;
    case ChangeStatus::kUnchanged: return 4;
  }
  return 5;
}

void thresholdWarnings(const Profile& base, const Profile& cur, Comparison* out) {
  if (!base.thresholds.is_object() || !cur.thresholds.is_object()) return;
  for (auto it = base.thresholds.begin(); it != base.thresholds.end(); ++it) {
    auto other = cur.thresholds.find(it.key());
    if (other == cur.thresholds.end() || !it.value().is_number() || !other->is_number()) continue;
    double a = it.value().get<double>();
    double b = other->get<double>();
    if (a != b) {
      out->warnings.push_back("the " + it.key() + " threshold differs (baseline " +
                              formatShortest(a) + ", current " + formatShortest(b) +
                              "): issues between the two show as new or fixed");
    }
  }
}

}  // namespace

const char* metricName(Metric metric) {
  return metric == Metric::kScore ? "score" : "normalized_score";
}

const char* statusName(ChangeStatus status) {
  switch (status) {
    case ChangeStatus::kRegressed: return "regressed";
    case ChangeStatus::kNew: return "new";
    case ChangeStatus::kImproved: return "improved";
    case ChangeStatus::kFixed: return "fixed";
    case ChangeStatus::kUnchanged: return "unchanged";
  }
  return "?";
}

const Tolerance& CompareOptions::toleranceFor(const std::string& kind) const {
  auto it = by_kind.find(kind);
  return it == by_kind.end() ? tolerance : it->second;
}

size_t Comparison::count(ChangeStatus status) const {
  return static_cast<size_t>(std::count_if(changes.begin(), changes.end(),
                                           [&](const IssueChange& c) { return c.status == status; }));
}

bool Comparison::failed(const CompareOptions& options) const {
  return count(ChangeStatus::kRegressed) > 0 ||
         (options.fail_on_new && count(ChangeStatus::kNew) > 0);
}

std::string describeObject(const ObjectInfo& o) {
  if (o.kind.empty()) return "(no object)";
  const SourceLocation& s = o.site;
  std::string where;
  if (!s.file.empty()) {
    where = s.file;
    if (s.line > 0) where += ":" + std::to_string(s.line);
  }
  if (isGlobal(o)) {
    std::string text = o.kind + " '" + *o.name + "'";
    if (!where.empty()) text += " (" + where + ")";
    return text;
  }
  std::string text = o.kind;
  if (o.name) text += " '" + *o.name + "'";
  text += o.kind == "global" ? " defined" : " allocated";
  text += where.empty() ? " at an unknown site" : " at " + where;
  if (!s.function.empty()) text += " in " + s.function;
  return text;
}

bool compareProfiles(const Profile& base, const Profile& cur, const CompareOptions& options,
                     Comparison* out, std::string* error) {
  std::string local;
  if (error == nullptr) error = &local;
  *out = Comparison();
  out->metric = options.metric;
  if (options.metric == Metric::kNormalizedScore) {
    if (!base.program.access_data || !cur.program.access_data) {
      *error = std::string("cannot compare normalized scores: the ") +
               (!base.program.access_data ? "baseline" : "current profile") +
               " has no access data (program not built with numaperf-clang)";
      return false;
    }
  }
  if (!checkValues(base, "baseline", options.metric, error) ||
      !checkValues(cur, "current", options.metric, error))
    return false;
  thresholdWarnings(base, cur, out);

  const size_t nb = base.issues.size();
  const size_t nc = cur.issues.size();
  std::vector<int> base_match(nb, -1);
  std::vector<int> cur_match(nc, -1);
  std::vector<std::string> notes(nc);

  for (int level = 0; level < kLevels; ++level) {
    std::unordered_map<std::string, std::vector<size_t>> base_groups;
    std::unordered_map<std::string, std::vector<size_t>> cur_groups;
    for (size_t i = 0; i < nb; ++i)
      if (base_match[i] < 0) base_groups[matchKey(base.issues[i], level)].push_back(i);
    for (size_t i = 0; i < nc; ++i)
      if (cur_match[i] < 0) cur_groups[matchKey(cur.issues[i], level)].push_back(i);
    // Walk current issues in rank order so that the result is deterministic.
    for (size_t c = 0; c < nc; ++c) {
      if (cur_match[c] >= 0) continue;
      auto b_it = base_groups.find(matchKey(cur.issues[c], level));
      if (b_it == base_groups.end() || b_it->second.empty()) continue;
      auto& cur_group = cur_groups[b_it->first];
      // Looser levels only pair an identity that is unique on both sides.
      if (level > 0 && (b_it->second.size() != 1 || cur_group.size() != 1)) continue;
      size_t b = b_it->second.front();
      b_it->second.erase(b_it->second.begin());
      base_match[b] = static_cast<int>(c);
      cur_match[c] = static_cast<int>(b);
      const SourceLocation& bs = base.issues[b].object.site;
      const SourceLocation& cs = cur.issues[c].object.site;
      if (level == 2 && bs.line != cs.line)
        notes[c] = "site moved from line " + std::to_string(bs.line) + " to " +
                   std::to_string(cs.line);
    }
  }

  for (size_t c = 0; c < nc; ++c) {
    const Issue& ci = cur.issues[c];
    IssueChange ch;
    ch.kind = ci.kind;
    ch.identity = describeObject(ci.object);
    ch.current_index = static_cast<int>(c);
    ch.current_value = metricValue(ci, options.metric);
    ch.match_note = notes[c];
    if (cur_match[c] < 0) {
      ch.status = ChangeStatus::kNew;
    } else {
      const Issue& bi = base.issues[cur_match[c]];
      ch.baseline_index = cur_match[c];
      ch.baseline_value = metricValue(bi, options.metric);
      const Tolerance& t = options.toleranceFor(ci.kind);
      ch.allowed = std::max(t.relative * std::fabs(ch.baseline_value), t.absolute);
      double delta = ch.current_value - ch.baseline_value;
      if (delta > ch.allowed) {
        ch.status = ChangeStatus::kRegressed;
      } else if (-delta > ch.allowed) {
        ch.status = ChangeStatus::kImproved;
      } else {
        ch.status = ChangeStatus::kUnchanged;
      }
    }
    out->changes.push_back(std::move(ch));
  }
  for (size_t b = 0; b < nb; ++b) {
    if (base_match[b] >= 0) continue;
    const Issue& bi = base.issues[b];
    IssueChange ch;
    ch.status = ChangeStatus::kFixed;
    ch.kind = bi.kind;
    ch.identity = describeObject(bi.object);
    ch.baseline_index = static_cast<int>(b);
    ch.baseline_value = metricValue(bi, options.metric);
    out->changes.push_back(std::move(ch));
  }
  std::stable_sort(out->changes.begin(), out->changes.end(),
                   [](const IssueChange& a, const IssueChange& b) {
                     int ga = groupRank(a.status), gb = groupRank(b.status);
                     if (ga != gb) return ga < gb;
                     double va = a.status == ChangeStatus::kFixed ? a.baseline_value : a.current_value;
                     double vb = b.status == ChangeStatus::kFixed ? b.baseline_value : b.current_value;
                     return va > vb;
                   });
  return true;
}

}  // namespace numaperf::report
