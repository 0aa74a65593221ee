// Invariants between events, read from per-processor-family data files
// (tools/counters/invariants/*.json, format in docs/counters.md): linear
// relations such as sub-events summing to their union event, local + remote =
// total, per-channel counts summing to a node's total, or the top-down
// level-1 categories summing to the slots. Nothing here knows an event name.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace numaperf::counters {

// Event names compare case-insensitively, with ':' and '.' equivalent
// (libpfm's MEM_LOAD_RETIRED:L1_HIT is perf's mem_load_retired.l1_hit).
std::string canonicalEventName(const std::string& name);

struct Term {
  std::string event;  // canonical name
  double coef = 1;
};

// sum(coef * value) = 0 over the terms. `tolerance` > 0 makes it soft: the
// sum may deviate by about tolerance * (largest term), for relations that
// hardware keeps only approximately.
struct Invariant {
  std::string name;
  std::vector<Term> terms;
  double tolerance = 0;
};

struct Family {
  std::string name, description, origin;
  std::string vendor;              // /proc/cpuinfo vendor_id; empty: any
  std::vector<int> cpuFamilies;    // cpu family; empty: any
  std::vector<int> models;         // model; empty: any
  bool always = false;             // applies on every host (software events)
  int programmable = 0;            // general-purpose counters of the core PMU
  std::vector<std::string> fixed;  // events on fixed counters (always counted)
  std::map<std::string, std::vector<int>> constraints;  // event -> counters allowed
  std::vector<Invariant> invariants;
};

// Throw CountersError naming `origin` on malformed input.
Family parseFamily(const nlohmann::json& doc, const std::string& origin);
Family loadFamilyFile(const std::string& path);
// Every *.json in `dir`, sorted by file name.
std::vector<Family> loadFamilyDir(const std::string& dir);
// Families for a CPU: the `always` ones plus those whose vendor/family/model
// match.
std::vector<Family> familiesFor(const std::vector<Family>& all, const std::string& vendor, int cpuFamily,
                                int model);

// The invariants whose events are all among `events`, as dense rows over the
// indices of `events` (events given in any spelling).
struct LinearSystem {
  std::vector<std::vector<double>> rows;
  std::vector<double> tolerance;
  std::vector<std::string> names;
  size_t size() const { return rows.size(); }
};
LinearSystem restrictTo(const std::vector<Invariant>& invariants, const std::vector<std::string>& events);

// For each event index, the other events sharing an invariant with it.
std::vector<std::vector<int>> invariantNeighbours(const LinearSystem& sys, size_t events);

// sum(coef * value) of one row: 0 when the values satisfy it exactly.
double rowResidual(const std::vector<double>& row, const std::vector<double>& values);

}  // namespace numaperf::counters
