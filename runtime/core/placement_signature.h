// The bandwidth signature of the profile (issue 8, docs/bwmodel.md): every
// counted access is classed by its page's first toucher and the threads that
// use the page, as one of the four traffic patterns of the placement model
// (Goodman et al. 2021): static (all threads' traffic goes to one node, the
// toucher's), local (to the thread's own node), per-thread (spread over the
// nodes in proportion to their threads) or interleaved (spread evenly).
//
// Rules, per page, in this order (weights: accesses, reads and writes apart):
// - the page carries an interleave policy (mbind, or its toucher's task
//   policy; core/mempolicy_registry.h): all its accesses are interleaved;
// - writes the toucher made while it was the page's only user are local
//   (initialisation), and so are such reads except on per-thread pages,
//   where they are the toucher's share of the all-use-all pattern (the
//   per-thread matrix already sends 1/n of each thread's traffic home);
// - after other threads joined: a page used only by its toucher is local; a
//   "wide" page (used by at least max(2, ceil(u / 2)) threads, u = the
//   threads that used any shared page of the object instance) of an
//   object whose wide pages have two or more touchers, none with 90% of
//   their accesses, is per-thread (each thread allocated its part, all use
//   all); any other shared page is static: the toucher's own accesses are
//   local (its node is the static one), the others' static, recorded by
//   toucher thread (the static socket is that thread's node under a
//   placement);
// - remote accesses counted before the page had its detail
//   (NUMAPERF_PAGE_DETAIL_THRESHOLD) are static reads of the toucher's node;
// - pages sampled away (core/page_sampling.h): other threads' accesses are
//   classed as those to the object's sampled pages (scaleOthers), or, when
//   no sampled page had any, as early remote accesses; the toucher's writes
//   are local, its reads per-thread when its sampled pages are, else local.
#pragma once

#include <cstdint>

namespace numaperf {

enum SignatureClass : unsigned {
  kStaticClass = 0,
  kLocalClass = 1,
  kPerThreadClass = 2,
  kInterleavedClass = 3,
  kSignatureClasses = 4,
};

constexpr unsigned kMaxStaticTouchers = 8;
constexpr uint32_t kOtherToucher = 0xffffffffu;  // touchers past the table

struct StaticToucher {
  uint32_t thread = 0;  // thread index, or kOtherToucher
  double reads = 0, writes = 0;
};

// Access-weighted class totals of an object (summed over its instances).
struct SignatureCounts {
  double reads[kSignatureClasses] = {};
  double writes[kSignatureClasses] = {};
  uint32_t toucher_count = 0;
  StaticToucher touchers[kMaxStaticTouchers];  // the static accesses by toucher

  void addStatic(uint32_t thread, double reads, double writes);
  void merge(const SignatureCounts &other);
  double total() const;
};

// What the fold saw of one page (the page's middle byte is in the object).
struct PageUse {
  uint32_t owner_tag = 0;  // first toucher (index + 1); 0: never touched
  bool interleaved = false;
  uint64_t private_reads = 0, private_writes = 0;  // toucher alone
  uint64_t shared_reads = 0, shared_writes = 0;    // after other threads came
  uint64_t toucher_shared = 0;  // the toucher's accesses among the shared ones
  uint64_t others_shared = 0;   // the other threads' accesses
  uint32_t users = 0;           // threads with shared accesses (toucher included)
  uint64_t user_bits = 0;       // bit (tag % 64) of each of those threads
};

// Classifies the pages of one object instance. Whether a page is wide
// depends on how many threads used the object at all, and the per-thread
// decision on all its wide pages, so shared pages are kept by (toucher,
// users) until finish(). No member is zeroed up front: folds are frequent.
class SignatureClassifier {
 public:
  void addPage(const PageUse &page);
  // Remote accesses of unknown kind counted before the page had detail.
  void addEarlyRemote(uint32_t owner_tag, uint64_t accesses);
  // A page sampled away (core/page_sampling.h): only its toucher's counts
  // are known, its reads classed in finish() as its sampled pages are.
  void addSampledAway(const PageUse &page);
  // Weighs the other threads' accesses to the shared pages seen so far by
  // `f`: they stand for those of pages sampled away (core/page_sampling.h).
  void scaleOthers(double f);
  // Adds the instance's totals to `out`.
  void finish(SignatureCounts *out);

 private:
  static constexpr unsigned kMaxGroups = 48;  // ~2.7 KiB of stack in the free path
  struct Group {  // shared pages of one toucher with one user count
    uint32_t tag, users;
    double own_reads, own_writes, other_reads, other_writes;
    double private_reads;  // the toucher's, before sharing
  };
  Group *groupFor(uint32_t tag, uint32_t users);
  void classifyNarrow(const Group &g);

  Group groups_[kMaxGroups];
  unsigned group_count_ = 0;
  uint64_t user_bits_ = 0;  // threads that used any shared page of the instance
  double interleaved_other_reads_ = 0, interleaved_other_writes_ = 0;  // other threads', interleaved pages
  static constexpr unsigned kMaxAwayTouchers = 8;
  struct AwayReads {
    uint32_t tag;
    double reads;
  };
  AwayReads away_[kMaxAwayTouchers];
  unsigned away_count_ = 0;
  SignatureCounts counts_;
};

}  // namespace numaperf
