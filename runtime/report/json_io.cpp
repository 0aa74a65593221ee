#include "report/json_io.h"

#include <cmath>
#include <limits>

namespace numaperf::report {

using nlohmann::json;

namespace {

// The model allows any JSON in evidence/thresholds; the file format wants an
// object, so a stray non-object is kept under "value" instead of being lost.
json asObject(const json& j) {
  if (j.is_object()) return j;
  if (j.is_null()) return json::object();
  return json{{"value", j}};
}

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json locationJson(const SourceLocation& loc) {
  return json{{"file", loc.file}, {"line", loc.line}, {"function", loc.function}};
}

json frameJson(const Frame& f) {
  return json{{"pc", f.pc},
              {"module", f.module},
              {"offset", f.module_offset},
              {"file", f.location.file},
              {"line", f.location.line},
              {"function", f.location.function}};
}

json objectJson(const ObjectInfo& o) {
  json stack = json::array();
  for (const Frame& f : o.stack) stack.push_back(frameJson(f));
  return json{{"kind", o.kind},
              {"name", o.name ? json(*o.name) : json(nullptr)},
              {"size", o.size},
              {"instances", o.instances},
              {"site", locationJson(o.site)},
              {"stack", std::move(stack)}};
}

json issueJson(const Issue& i) {
  return json{{"kind", i.kind},
              {"score", number(i.score)},
              {"normalized_score", number(i.normalized_score)},
              {"threshold", number(i.threshold)},
              {"object", objectJson(i.object)},
              {"fix", i.fix},
              {"evidence", asObject(i.evidence)}};
}

json threadJson(const ThreadRecord& t) {
  return json{{"index", t.index},
              {"type", t.type},
              {"accesses", t.accesses},
              {"contentions", t.contentions},
              {"waits", t.waits},
              {"cond_waits", t.cond_waits},
              {"barrier_waits", t.barrier_waits},
              {"sem_waits", t.sem_waits},
              {"observed_migrations",
               t.observed_migrations ? json(*t.observed_migrations) : json(nullptr)}};
}

json countsJson(const std::vector<std::pair<std::string, uint64_t>>& counts) {
  json j = json::object();
  for (const auto& [name, n] : counts) j[name] = n;
  return j;
}

json sharesJson(const SignatureShares& k) {
  return json{{"accesses", number(k.accesses)},
              {"static", number(k.static_share)},
              {"local", number(k.local)},
              {"per_thread", number(k.per_thread)},
              {"interleaved", number(k.interleaved)},
              {"static_thread", k.static_thread ? json(*k.static_thread) : json(nullptr)}};
}

json touchersJson(const std::vector<StaticToucherShare>& touchers) {
  json out = json::array();
  for (const StaticToucherShare& t : touchers)
    out.push_back(json{{"thread", t.thread ? json(*t.thread) : json(nullptr)},
                       {"reads", number(t.reads)},
                       {"writes", number(t.writes)}});
  return out;
}

json signatureJson(const std::optional<BandwidthSignature>& sig) {
  if (!sig) return json(nullptr);
  json objects = json::array();
  for (const ObjectSignature& o : sig->objects)
    objects.push_back(json{{"object", objectJson(o.object)},
                           {"read", sharesJson(o.read)},
                           {"write", sharesJson(o.write)},
                           {"static_threads", touchersJson(o.static_threads)}});
  return json{{"weighting", sig->weighting},
              {"program",
               {{"read", sharesJson(sig->read)},
                {"write", sharesJson(sig->write)},
                {"static_threads", touchersJson(sig->static_threads)}}},
              {"objects", std::move(objects)},
              {"objects_omitted", sig->objects_omitted}};
}

json imbalanceJson(const std::optional<Imbalance>& im) {
  if (!im) return json(nullptr);
  json types = json::array();
  for (const ThreadTypeShare& t : im->types)
    types.push_back(json{{"name", t.name},
                         {"threads", t.threads},
                         {"accesses", t.accesses},
                         {"share", number(t.share)}});
  json j{{"main_thread_accesses", im->main_thread_accesses},
         {"types", std::move(types)},
         {"ratio", number(im->ratio)},
         {"suggested_total", im->suggested_total},
         {"suggested", countsJson(im->suggested)}};
  if (im->requested_total > 0) {
    j["requested_total"] = im->requested_total;
    j["suggested_for_requested"] = countsJson(im->suggested_for_requested);
  }
  return j;
}

json instrumentationJson(const std::optional<Instrumentation>& in) {
  if (!in) return json(nullptr);
  json periods = json::array();
  for (const ProfiledPeriod& p : in->periods)
    periods.push_back(json{{"start_ms", number(p.start_ms)}, {"end_ms", number(p.end_ms)}});
  json functions = json::array();
  for (const InstrumentedFunction& f : in->functions)
    functions.push_back(json{{"name", f.name},
                             {"function", f.function},
                             {"file", f.file},
                             {"line", f.line},
                             {"hooks", f.hooks},
                             {"filtered_accesses", f.filtered_accesses},
                             {"filtered", f.filtered},
                             {"entries", f.entries},
                             {"hook_calls", f.hook_calls},
                             {"hook_calls_counted", f.hook_calls_counted},
                             {"first_thread",
                              f.first_thread ? json(*f.first_thread) : json(nullptr)}});
  return json{{"profiling",
               {{"initially_on", in->initially_on},
                {"active_regions", in->active_regions},
                {"toggle_signal",
                 in->toggle_signal.empty() ? json(nullptr) : json(in->toggle_signal)},
                {"always_on", in->always_on},
                {"profiled_ms", number(in->profiled_ms)},
                {"periods", std::move(periods)},
                {"switches_lost", in->switches_lost}}},
              {"functions", std::move(functions)}};
}

// ---- reading -------------------------------------------------------------

const char* typeName(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "object";
    case json::value_t::array: return "array";
    case json::value_t::string: return "string";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer: return "integer";
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "float";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "discarded";
  }
  return "unknown";
}

// Reads fields of one JSON object; the first failure is kept in *error.
class Reader {
 public:
  Reader(const json& obj, std::string path, std::string* error)
      : obj_(obj), path_(std::move(path)), error_(error) {}

  std::string path(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  bool ok() const { return error_->empty(); }

  // Returns the member or nullptr if missing (and records an error if required).
  const json* get(const char* key, bool required) {
    if (!ok()) return nullptr;
    auto it = obj_.find(key);
    if (it == obj_.end()) {
      if (required) fail(key, "missing required field");
      return nullptr;
    }
    return &*it;
  }

  void fail(const char* key, const std::string& what) {
    if (ok()) *error_ = path(key) + ": " + what;
  }
  void wrongType(const char* key, const char* expected, const json& got) {
    fail(key, std::string("expected ") + expected + ", got " + typeName(got));
  }

  void str(const char* key, std::string* out, bool required = false) {
    const json* j = get(key, required);
    if (j == nullptr) return;
    if (!j->is_string()) return wrongType(key, "a string", *j);
    *out = j->get<std::string>();
  }

  void u64(const char* key, uint64_t* out, bool required = false) {
    const json* j = get(key, required);
    if (j == nullptr) return;
    if (j->is_number_unsigned()) {
      *out = j->get<uint64_t>();
    } else if (j->is_number_integer()) {
      fail(key, "expected a non-negative integer, got " + j->dump());
    } else {
      wrongType(key, "a non-negative integer", *j);
    }
  }

  void u32(const char* key, uint32_t* out) {
    uint64_t v = *out;
    u64(key, &v);
    if (!ok()) return;
    if (v > std::numeric_limits<uint32_t>::max()) return fail(key, "value out of range");
    *out = static_cast<uint32_t>(v);
  }

  void i64(const char* key, int64_t* out) {
    const json* j = get(key, false);
    if (j == nullptr) return;
    if (j->is_number_integer() && !j->is_number_unsigned()) {
      *out = j->get<int64_t>();
    } else if (j->is_number_unsigned()) {
      if (j->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return fail(key, "value out of range");
      *out = static_cast<int64_t>(j->get<uint64_t>());
    } else {
      wrongType(key, "an integer", *j);
    }
  }

  void dbl(const char* key, double* out, bool required = false) {
    const json* j = get(key, required);
    if (j == nullptr) return;
    if (j->is_null()) {
      *out = std::numeric_limits<double>::quiet_NaN();
    } else if (j->is_number()) {
      *out = j->get<double>();
    } else {
      wrongType(key, "a number", *j);
    }
  }

  void boolean(const char* key, bool* out) {
    const json* j = get(key, false);
    if (j == nullptr) return;
    if (!j->is_boolean()) return wrongType(key, "a boolean", *j);
    *out = j->get<bool>();
  }

  void strings(const char* key, std::vector<std::string>* out) {
    const json* j = get(key, false);
    if (j == nullptr) return;
    if (!j->is_array()) return wrongType(key, "an array of strings", *j);
    out->clear();
    for (size_t i = 0; i < j->size(); ++i) {
      const json& e = (*j)[i];
      if (!e.is_string()) {
        std::string k = std::string(key) + "[" + std::to_string(i) + "]";
        return wrongType(k.c_str(), "a string", e);
      }
      out->push_back(e.get<std::string>());
    }
  }

  // A nested object: returns it (type checked) or nullptr.
  const json* object(const char* key, bool required = false) {
    const json* j = get(key, required);
    if (j == nullptr) return nullptr;
    if (!j->is_object()) {
      wrongType(key, "an object", *j);
      return nullptr;
    }
    return j;
  }

  const json* array(const char* key, bool required = false) {
    const json* j = get(key, required);
    if (j == nullptr) return nullptr;
    if (!j->is_array()) {
      wrongType(key, "an array", *j);
      return nullptr;
    }
    return j;
  }

 private:
  const json& obj_;
  std::string path_;
  std::string* error_;
};

void readLocation(const json& j, const std::string& path, SourceLocation* loc, std::string* err) {
  Reader r(j, path, err);
  r.str("file", &loc->file);
  r.u32("line", &loc->line);
  r.str("function", &loc->function);
}

void readFrame(const json& j, const std::string& path, Frame* f, std::string* err) {
  if (!j.is_object()) {
    *err = path + ": expected an object, got " + typeName(j);
    return;
  }
  Reader r(j, path, err);
  r.u64("pc", &f->pc);
  r.str("module", &f->module);
  r.u64("offset", &f->module_offset);
  r.str("file", &f->location.file);
  r.u32("line", &f->location.line);
  r.str("function", &f->location.function);
}

void readObject(const json& j, const std::string& path, ObjectInfo* o, std::string* err) {
  Reader r(j, path, err);
  r.str("kind", &o->kind, true);
  if (const json* name = r.get("name", false)) {
    if (name->is_null()) {
      o->name.reset();
    } else if (name->is_string()) {
      o->name = name->get<std::string>();
    } else {
      r.wrongType("name", "a string or null", *name);
    }
  }
  r.u64("size", &o->size);
  r.u64("instances", &o->instances);
  if (const json* site = r.object("site")) readLocation(*site, r.path("site"), &o->site, err);
  if (const json* stack = r.array("stack")) {
    for (size_t i = 0; i < stack->size() && r.ok(); ++i) {
      Frame f;
      readFrame((*stack)[i], r.path("stack") + "[" + std::to_string(i) + "]", &f, err);
      o->stack.push_back(std::move(f));
    }
  }
}

void readIssue(const json& j, const std::string& path, Issue* issue, std::string* err) {
  if (!j.is_object()) {
    *err = path + ": expected an object, got " + typeName(j);
    return;
  }
  Reader r(j, path, err);
  r.str("kind", &issue->kind, true);
  r.dbl("score", &issue->score, true);
  r.dbl("normalized_score", &issue->normalized_score);
  r.dbl("threshold", &issue->threshold);
  if (const json* obj = r.object("object"))
    readObject(*obj, r.path("object"), &issue->object, err);
  r.str("fix", &issue->fix);
  if (const json* ev = r.object("evidence")) issue->evidence = *ev;
}

void readProgram(const json& j, ProgramInfo* p, std::string* err) {
  Reader r(j, "program", err);
  r.strings("command", &p->command);
  r.i64("pid", &p->pid);
  r.dbl("wall_ms", &p->wall_ms);
  r.dbl("score_ms", &p->score_ms);
  r.dbl("hook_time_share", &p->hook_time_share);
  r.u64("threads", &p->threads);
  r.u64("total_accesses", &p->total_accesses);
  r.boolean("access_data", &p->access_data);
  r.u64("memory_limit_mib", &p->memory_limit_mib);
  r.u64("detail_dropped", &p->detail_dropped);
}

void readThread(const json& j, const std::string& path, ThreadRecord* t, std::string* err) {
  if (!j.is_object()) {
    *err = path + ": expected an object, got " + typeName(j);
    return;
  }
  Reader r(j, path, err);
  r.u32("index", &t->index);
  r.str("type", &t->type);
  r.u64("accesses", &t->accesses);
  r.u64("contentions", &t->contentions);
  r.u64("waits", &t->waits);
  r.u64("cond_waits", &t->cond_waits);
  r.u64("barrier_waits", &t->barrier_waits);
  r.u64("sem_waits", &t->sem_waits);
  if (const json* m = r.get("observed_migrations", false)) {
    if (!m->is_null()) {
      uint64_t v = 0;
      r.u64("observed_migrations", &v);
      t->observed_migrations = v;
    }
  }
}

void readCounts(const json& j, const std::string& path,
                std::vector<std::pair<std::string, uint64_t>>* out, std::string* err) {
  Reader r(j, path, err);
  for (auto it = j.begin(); it != j.end() && r.ok(); ++it) {
    uint64_t v = 0;
    r.u64(it.key().c_str(), &v);
    out->emplace_back(it.key(), v);
  }
}

void readImbalance(const json& j, Imbalance* im, std::string* err) {
  Reader r(j, "imbalance", err);
  r.u64("main_thread_accesses", &im->main_thread_accesses);
  if (const json* types = r.array("types")) {
    for (size_t i = 0; i < types->size() && r.ok(); ++i) {
      const std::string path = r.path("types") + "[" + std::to_string(i) + "]";
      const json& e = (*types)[i];
      if (!e.is_object()) {
        *err = path + ": expected an object, got " + typeName(e);
        break;
      }
      Reader t(e, path, err);
      ThreadTypeShare share;
      t.str("name", &share.name, true);
      t.u64("threads", &share.threads);
      t.u64("accesses", &share.accesses);
      t.dbl("share", &share.share);
      im->types.push_back(std::move(share));
    }
  }
  r.dbl("ratio", &im->ratio);
  r.u64("suggested_total", &im->suggested_total);
  if (const json* s = r.object("suggested")) readCounts(*s, r.path("suggested"), &im->suggested, err);
  r.u64("requested_total", &im->requested_total);
  if (const json* s = r.object("suggested_for_requested"))
    readCounts(*s, r.path("suggested_for_requested"), &im->suggested_for_requested, err);
}

void readShares(const json& j, const std::string& path, SignatureShares* k, std::string* err) {
  if (!j.is_object()) {
    *err = path + ": expected an object, got " + typeName(j);
    return;
  }
  Reader r(j, path, err);
  r.dbl("accesses", &k->accesses, true);
  r.dbl("static", &k->static_share, true);
  r.dbl("local", &k->local, true);
  r.dbl("per_thread", &k->per_thread, true);
  r.dbl("interleaved", &k->interleaved, true);
  if (const json* t = r.get("static_thread", false)) {
    if (!t->is_null()) {
      uint32_t v = 0;
      r.u32("static_thread", &v);
      k->static_thread = v;
    }
  }
  for (double v : {k->accesses, k->static_share, k->local, k->per_thread, k->interleaved})
    if (r.ok() && !(v >= 0)) r.fail("accesses", "fractions and weights must be non-negative numbers");
}

void readTouchers(const json& j, const std::string& path, std::vector<StaticToucherShare>* out,
                  std::string* err) {
  if (!j.is_array()) {
    *err = path + ": expected an array, got " + typeName(j);
    return;
  }
  for (size_t i = 0; i < j.size() && err->empty(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    if (!j[i].is_object()) {
      *err = p + ": expected an object, got " + typeName(j[i]);
      return;
    }
    Reader r(j[i], p, err);
    StaticToucherShare t;
    if (const json* th = r.get("thread", false); th && !th->is_null()) {
      uint32_t v = 0;
      r.u32("thread", &v);
      t.thread = v;
    }
    r.dbl("reads", &t.reads);
    r.dbl("writes", &t.writes);
    out->push_back(t);
  }
}

void readSignature(const json& j, BandwidthSignature* sig, std::string* err) {
  Reader r(j, "bandwidth_signature", err);
  r.str("weighting", &sig->weighting);
  if (const json* prog = r.object("program", true)) {
    Reader p(*prog, r.path("program"), err);
    if (const json* k = p.get("read", true)) readShares(*k, p.path("read"), &sig->read, err);
    if (const json* k = p.get("write", true)) readShares(*k, p.path("write"), &sig->write, err);
    if (const json* t = p.get("static_threads", false))
      readTouchers(*t, p.path("static_threads"), &sig->static_threads, err);
  }
  if (const json* objects = r.array("objects")) {
    for (size_t i = 0; i < objects->size() && r.ok(); ++i) {
      const std::string path = r.path("objects") + "[" + std::to_string(i) + "]";
      const json& e = (*objects)[i];
      if (!e.is_object()) {
        *err = path + ": expected an object, got " + typeName(e);
        break;
      }
      Reader o(e, path, err);
      ObjectSignature os;
      if (const json* obj = o.object("object", true)) readObject(*obj, o.path("object"), &os.object, err);
      if (const json* k = o.get("read", true)) readShares(*k, o.path("read"), &os.read, err);
      if (const json* k = o.get("write", true)) readShares(*k, o.path("write"), &os.write, err);
      if (const json* t = o.get("static_threads", false))
        readTouchers(*t, o.path("static_threads"), &os.static_threads, err);
      sig->objects.push_back(std::move(os));
    }
  }
  r.u64("objects_omitted", &sig->objects_omitted);
}

void readInstrumentation(const json& j, Instrumentation* in, std::string* err) {
  Reader r(j, "instrumentation", err);
  if (const json* prof = r.object("profiling")) {
    Reader p(*prof, r.path("profiling"), err);
    p.boolean("initially_on", &in->initially_on);
    p.strings("active_regions", &in->active_regions);
    if (const json* sig = p.get("toggle_signal", false)) {
      if (sig->is_string())
        in->toggle_signal = sig->get<std::string>();
      else if (!sig->is_null())
        p.wrongType("toggle_signal", "a string or null", *sig);
    }
    p.boolean("always_on", &in->always_on);
    p.dbl("profiled_ms", &in->profiled_ms);
    p.u64("switches_lost", &in->switches_lost);
    if (const json* periods = p.array("periods")) {
      for (size_t i = 0; i < periods->size() && p.ok(); ++i) {
        const std::string path = p.path("periods") + "[" + std::to_string(i) + "]";
        const json& e = (*periods)[i];
        if (!e.is_object()) {
          *err = path + ": expected an object, got " + typeName(e);
          break;
        }
        Reader q(e, path, err);
        ProfiledPeriod period;
        q.dbl("start_ms", &period.start_ms);
        q.dbl("end_ms", &period.end_ms);
        in->periods.push_back(period);
      }
    }
  }
  if (const json* fns = r.array("functions")) {
    for (size_t i = 0; i < fns->size() && r.ok(); ++i) {
      const std::string path = r.path("functions") + "[" + std::to_string(i) + "]";
      const json& e = (*fns)[i];
      if (!e.is_object()) {
        *err = path + ": expected an object, got " + typeName(e);
        break;
      }
      Reader q(e, path, err);
      InstrumentedFunction f;
      q.str("name", &f.name, true);
      q.str("function", &f.function);
      q.str("file", &f.file);
      q.u32("line", &f.line);
      q.u32("hooks", &f.hooks);
      q.u32("filtered_accesses", &f.filtered_accesses);
      q.boolean("filtered", &f.filtered);
      q.u64("entries", &f.entries);
      q.u64("hook_calls", &f.hook_calls);
      q.boolean("hook_calls_counted", &f.hook_calls_counted);
      if (const json* t = q.get("first_thread", false)) {
        if (!t->is_null()) {
          uint32_t v = 0;
          q.u32("first_thread", &v);
          f.first_thread = v;
        }
      }
      in->functions.push_back(std::move(f));
    }
  }
}

std::optional<Profile> read(const json& j, std::string* err) {
  if (!j.is_object()) {
    *err = std::string("top level: expected an object, got ") + typeName(j);
    return std::nullopt;
  }
  Profile p;
  Reader r(j, "", err);
  const json* version = r.get("schema_version", true);
  if (version == nullptr) return std::nullopt;
  if (!version->is_number_integer()) {
    r.wrongType("schema_version", "an integer", *version);
    return std::nullopt;
  }
  if (*version != kSchemaVersion) {
    r.fail("schema_version", "unsupported version " + version->dump() + " (this build reads " +
                                 std::to_string(kSchemaVersion) + ")");
    return std::nullopt;
  }
  p.schema_version = kSchemaVersion;
  if (const json* prog = r.object("program", true)) readProgram(*prog, &p.program, err);
  if (const json* th = r.object("thresholds")) p.thresholds = *th;
  r.strings("notes", &p.notes);
  if (const json* issues = r.array("issues", true)) {
    for (size_t i = 0; i < issues->size() && r.ok(); ++i) {
      Issue issue;
      readIssue((*issues)[i], "issues[" + std::to_string(i) + "]", &issue, err);
      p.issues.push_back(std::move(issue));
    }
  }
  if (const json* threads = r.array("threads")) {
    for (size_t i = 0; i < threads->size() && r.ok(); ++i) {
      ThreadRecord t;
      readThread((*threads)[i], "threads[" + std::to_string(i) + "]", &t, err);
      p.threads.push_back(std::move(t));
    }
  }
  if (const json* im = r.get("imbalance", false)) {
    if (im->is_object()) {
      Imbalance value;
      readImbalance(*im, &value, err);
      p.imbalance = std::move(value);
    } else if (!im->is_null()) {
      r.wrongType("imbalance", "an object or null", *im);
    }
  }
  if (const json* in = r.get("instrumentation", false)) {
    if (in->is_object()) {
      Instrumentation value;
      readInstrumentation(*in, &value, err);
      p.instrumentation = std::move(value);
    } else if (!in->is_null()) {
      r.wrongType("instrumentation", "an object or null", *in);
    }
  }
  if (const json* sig = r.get("bandwidth_signature", false)) {
    if (sig->is_object()) {
      BandwidthSignature value;
      readSignature(*sig, &value, err);
      p.signature = std::move(value);
    } else if (!sig->is_null()) {
      r.wrongType("bandwidth_signature", "an object or null", *sig);
    }
  }
  if (!r.ok()) return std::nullopt;
  return p;
}

}  // namespace

json toJson(const Profile& profile) {
  try {
    json issues = json::array();
    for (const Issue& i : profile.issues) issues.push_back(issueJson(i));
    json threads = json::array();
    for (const ThreadRecord& t : profile.threads) threads.push_back(threadJson(t));
    const ProgramInfo& p = profile.program;
    return json{{"schema_version", kSchemaVersion},
                {"program",
                 {{"command", p.command},
                  {"pid", p.pid},
                  {"wall_ms", number(p.wall_ms)},
                  {"score_ms", number(p.score_ms)},
                  {"hook_time_share", number(p.hook_time_share)},
                  {"threads", p.threads},
                  {"total_accesses", p.total_accesses},
                  {"access_data", p.access_data},
                  {"memory_limit_mib", p.memory_limit_mib},
                  {"detail_dropped", p.detail_dropped}}},
                {"thresholds", asObject(profile.thresholds)},
                {"notes", profile.notes},
                {"issues", std::move(issues)},
                {"threads", std::move(threads)},
                {"imbalance", imbalanceJson(profile.imbalance)},
                {"bandwidth_signature", signatureJson(profile.signature)},
                {"instrumentation", instrumentationJson(profile.instrumentation)}};
  } catch (...) {
    return json{{"schema_version", kSchemaVersion}, {"error", "out of memory"}};
  }
}

std::optional<Profile> fromJson(const json& j, std::string* error) {
  std::string local;
  std::string* err = error != nullptr ? error : &local;
  err->clear();
  try {
    return read(j, err);
  } catch (const std::exception& e) {
    *err = std::string("cannot read profile: ") + e.what();
  } catch (...) {
    *err = "cannot read profile: unknown error";
  }
  return std::nullopt;
}

std::optional<Profile> fromJsonText(const std::string& text, std::string* error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception& e) {
    if (error != nullptr) *error = std::string("invalid JSON: ") + e.what();
    return std::nullopt;
  }
  return fromJson(j, error);
}

}  // namespace numaperf::report
