#include "analysis/issue_classifier.h"

#include "symbolize/symbolizer.h"

#include <algorithm>
#include <string>

namespace numaperf {
namespace {

using nlohmann::json;

constexpr uint64_t kPageBytes = 4096;
constexpr double kBlockwisePages = 0.8;    // share of shared pages dominated by one thread
constexpr double kDuplicableReads = 0.9;   // share of shared accesses that are reads after the last write

double perMs(double count, double wall_ms) { return wall_ms > 0 ? count / wall_ms : count; }
double perThousand(double count, uint64_t accesses) {
  return accesses ? count * 1000.0 / double(accesses) : 0;
}

std::string range(uint64_t first, uint64_t last) {
  return first == last ? std::to_string(first)
                       : std::to_string(first) + "-" + std::to_string(last);
}

json pageSegments(const ObjectProfile &p) {
  json segments = json::array();
  for (uint32_t i = 0; i < p.segment_count; ++i) {
    const PageSegment &s = p.segments[i];
    json seg;
    seg["pages"] = range(s.first_page, s.last_page);
    if (s.thread == kMixedThreads)
      seg["thread"] = "several";
    else
      seg["thread"] = s.thread;
    segments.push_back(seg);
  }
  return segments;
}

json accessSites(const ObjectProfile &p, symbolize::Symbolizer *symbolizer) {
  // Instructions of one source line (unrolled loops) are merged.
  struct Row {
    std::string file, function;
    uint32_t line = 0;
    uint64_t count = 0;
  };
  std::vector<Row> rows;
  for (const SiteCount &s : p.sites) {
    if (!s.pc || !s.count) continue;
    Row row;
    row.count = s.count;
    if (symbolizer) {
      report::Frame f = symbolizer->symbolize(s.pc, /*is_return_address=*/true);
      row.file = f.location.file;
      row.line = f.location.line;
      row.function = f.location.function;
    }
    auto same = std::find_if(rows.begin(), rows.end(), [&](const Row &r) {
      return r.file == row.file && r.line == row.line && r.function == row.function;
    });
    if (same != rows.end() && symbolizer)
      same->count += row.count;
    else
      rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.count > b.count; });
  json out = json::array();
  for (const Row &r : rows) {
    json site;
    site["file"] = r.file;
    site["line"] = r.line;
    site["function"] = r.function;
    site["count"] = r.count;
    out.push_back(site);
  }
  return out;
}

// Counts estimated from a sample of the object's pages (core/page_sampling.h)
// say so, with how many pages were left out of the model.
void noteSampling(const ObjectProfile &p, json *e) {
  if (p.pages_sampled_away) (*e)["pages_sampled_away"] = p.pages_sampled_away;
  if (p.lines_sampled_in_windows) (*e)["lines_sampled_in_windows"] = p.lines_sampled_in_windows;
}

// Byte ranges (from the object start) of the line's words the object
// holds, with the threads that touched them.
json lineWords(const LineEvidence &line) {
  json words = json::array();
  auto inObject = [&](unsigned w) { return line.offset + int64_t(w) * 4 >= 0; };
  unsigned i = 0;
  while (i < 16) {
    if (!line.first_tag[i] || !inObject(i)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j + 1 < 16 && line.first_tag[j + 1] == line.first_tag[i] &&
           line.other_tag[j + 1] == line.other_tag[i] && line.written[j + 1] == line.written[i])
      ++j;
    json w;
    int64_t from = line.offset + int64_t(i) * 4, to = line.offset + int64_t(j) * 4 + 3;
    w["bytes"] = range(uint64_t(from), uint64_t(to));
    json threads = json::array({line.first_tag[i] - 1});
    if (line.other_tag[i]) threads.push_back(line.other_tag[i] - 1);
    w["threads"] = threads;
    w["written"] = bool(line.written[i]);
    words.push_back(w);
    i = j + 1;
  }
  return words;
}

// Chooses the placement fix for remote accesses, with its evidence.
std::string placementFix(const ObjectProfile &p, json *evidence) {
  if (p.shared_pages > 0 && double(p.single_thread_pages) >= kBlockwisePages * double(p.shared_pages)) {
    (*evidence)["page_threads"] = pageSegments(p);
    (*evidence)["page_threads_truncated"] = p.segments_truncated;
    if (p.dominant_thread_count >= 2) return "block_interleave";
    (*evidence)["using_thread"] = p.dominant_thread_count ? json(p.dominant_threads[0]) : json();
    return "local_allocation";
  }
  uint64_t shared_accesses = p.shared_reads + p.shared_writes;
  if (shared_accesses && double(p.reads_after_last_write) >= kDuplicableReads * double(shared_accesses))
    return "duplicate";
  return "page_interleave";
}

report::Issue makeIssue(const char *kind, double score, double normalized, double threshold,
                        const report::ObjectInfo &object) {
  report::Issue issue;
  issue.kind = kind;
  issue.score = score;
  issue.normalized_score = normalized;
  issue.threshold = threshold;
  issue.object = object;
  return issue;
}

}  // namespace

void classifyObject(const report::ObjectInfo &object, const ObjectProfile &p,
                    const ScoringContext &c, std::vector<report::Issue> *out) {
  const double threads = double(c.threads ? c.threads : 1);
  // Invalidations seen before word detail started are split like the rest.
  uint64_t classified = p.invalidations_true + p.invalidations_false;
  uint64_t unclassified = p.invalidations > classified ? p.invalidations - classified : 0;
  double false_inv = double(p.invalidations_false), true_inv = double(p.invalidations_true);
  if (classified) {
    false_inv += double(unclassified) * double(p.invalidations_false) / double(classified);
    true_inv += double(unclassified) * double(p.invalidations_true) / double(classified);
  } else {
    false_inv += double(unclassified);  // no word detail: cannot tell; say false
  }

  // Remote accesses to pages dominated by sharing are coherence traffic
  // (reported through the sharing scores) when their lines are fought over
  // often; a line that changes hands more rarely than the hot rate has left
  // the caches in between and is fetched from its page's node.
  const double sharing_rate =
      p.sharing_page_lines && c.wall_ms > 0
          ? double(p.sharing_page_invalidations) / double(p.sharing_page_lines) / c.wall_ms
          : 0;
  const bool coherence = sharing_rate >= c.sharing_hot_rate;
  uint64_t placement_remote =
      coherence ? p.remote - std::min(p.remote, p.remote_in_sharing_pages) : p.remote;
  double remote_score = perMs(double(placement_remote), c.wall_ms);
  // Data smaller than a page in all stays in the caches of the threads that
  // use it, and no page placement can change where it lives: its traffic is
  // coherence, which the sharing scores report.
  uint64_t footprint = object.size * std::max<uint64_t>(object.instances, 1);
  if (placement_remote && remote_score >= c.remote_threshold && footprint >= kPageBytes) {
    report::Issue issue = makeIssue("remote_access", remote_score,
                                    perThousand(double(placement_remote), c.total_accesses),
                                    c.remote_threshold, object);
    json &e = issue.evidence;
    e["remote_accesses"] = placement_remote;
    e["remote_accesses_in_sharing_pages"] = p.remote_in_sharing_pages;
    e["sharing_pages_invalidation_rate"] = sharing_rate;
    e["share_of_program_remote_accesses"] =
        c.total_remote ? double(p.remote) / double(c.total_remote) : 0.0;
    e["object_pages"] = p.object_pages;
    e["shared_pages"] = p.shared_pages;
    e["single_thread_pages"] = p.single_thread_pages;
    e["max_threads_per_page"] = p.max_threads_per_page;
    e["reads_after_last_write"] = p.reads_after_last_write;
    e["shared_reads"] = p.shared_reads;
    e["shared_writes"] = p.shared_writes;
    e["false_sharing_score"] = perMs(false_inv, c.wall_ms) / threads;
    e["true_sharing_score"] = perMs(true_inv, c.wall_ms) / threads;
    issue.fix = placementFix(p, &e);
    e["access_sites"] = accessSites(p, c.symbolizer);
    noteSampling(p, &e);
    out->push_back(std::move(issue));
  }

  struct Sharing {
    const char *kind, *other_key, *fix;
    double invalidations, other;
    const LineEvidence &line;
    double threshold;
  };
  const Sharing kinds[] = {
      {"false_sharing", "true_sharing_invalidations", "padding", false_inv, true_inv,
       p.false_sharing_line, c.false_sharing_threshold},
      {"true_sharing", "false_sharing_invalidations", "reduce_sharing", true_inv, false_inv,
       p.true_sharing_line, c.true_sharing_threshold},
  };
  for (const Sharing &k : kinds) {
    double score = perMs(k.invalidations, c.wall_ms) / threads;
    if (k.invalidations <= 0 || score < k.threshold) continue;
    report::Issue issue = makeIssue(k.kind, score, perThousand(k.invalidations, c.total_accesses),
                                    k.threshold, object);
    json &e = issue.evidence;
    e["invalidations"] = uint64_t(k.invalidations);
    e["invalidations_total"] = p.invalidations;
    e[k.other_key] = uint64_t(k.other);
    if (k.line.valid) {
      e["line_offset"] = k.line.offset;  // may be negative: the line begins before the object
      e["line_invalidations"] = k.line.invalidations;
      e["words"] = lineWords(k.line);
    }
    e["access_sites"] = accessSites(p, c.symbolizer);
    noteSampling(p, &e);
    issue.fix = k.fix;
    out->push_back(std::move(issue));
  }
}

void rankIssues(std::vector<report::Issue> *issues) {
  auto severity = [](const report::Issue &i) {
    return i.threshold > 0 ? i.score / i.threshold : i.score;
  };
  std::stable_sort(issues->begin(), issues->end(),
                   [&](const report::Issue &a, const report::Issue &b) {
                     return severity(a) > severity(b);
                   });
}

}  // namespace numaperf
