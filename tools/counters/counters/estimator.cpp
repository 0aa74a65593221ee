#include "counters/estimator.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "counters/posterior.h"
#include "counters/student_t.h"

namespace numaperf::counters {

namespace {

constexpr double kRelNoiseFloor = 1e-8;  // (0.01 %)^2: counts are integers read at slightly different times
constexpr double kAnchorShare = 0.999;   // counted this share of the time: a reference for anyone

struct Series {
  std::vector<double> z;         // scaled value per slice; NaN when not counted
  double enabled = 0, running = 0, count = 0;
};

Series seriesOf(const std::vector<Reading>& r) {
  Series s;
  s.z.assign(r.size(), std::numeric_limits<double>::quiet_NaN());
  for (size_t t = 0; t < r.size(); ++t) {
    s.enabled += r[t].enabled;
    s.running += r[t].running;
    s.count += r[t].count;
    if (r[t].running > 0) s.z[t] = r[t].count * (r[t].enabled > 0 ? r[t].enabled / r[t].running : 1.0);
  }
  return s;
}

struct Ratio {
  bool ok = false;
  double r = 0, relVar = 0, dof = 0, sumSq = 0, n = 0;
};

// Ratio of event i to reference values zk over the slices where both ran.
Ratio ratio(const Series& si, const std::vector<double>& zk) {
  Ratio out;
  double a = 0, b = 0;
  std::vector<size_t> both;
  for (size_t t = 0; t < si.z.size(); ++t)
    if (!std::isnan(si.z[t]) && !std::isnan(zk[t])) {
      both.push_back(t);
      a += si.z[t];
      b += zk[t];
    }
  if (both.empty() || b <= 0) return out;
  out.ok = true;
  out.r = a / b;
  out.n = static_cast<double>(both.size());
  double meanI = a / out.n;
  if (meanI > 0)
    for (size_t t : both) {
      double e = (si.z[t] - out.r * zk[t]) / meanI;
      out.sumSq += e * e;
    }
  out.dof = out.n - 1;
  return out;
}

double welch(double a, double nuA, double b, double nuB) {
  if (a <= 0) return nuB;
  if (b <= 0) return nuA;
  double den = (nuA > 0 ? a * a / nuA : 0) + (nuB > 0 ? b * b / nuB : 0);
  return den > 0 ? (a + b) * (a + b) / den : std::max(nuA, nuB);
}

}  // namespace

double plainScaling(const std::vector<Reading>& slices) {
  double c = 0, e = 0, r = 0;
  for (const auto& s : slices) {
    c += s.count;
    e += s.enabled;
    r += s.running;
  }
  return r > 0 ? c * e / r : 0;
}

Estimator::Estimator(std::vector<std::string> events, LinearSystem sys, double level)
    : events_(std::move(events)), sys_(std::move(sys)), level_(level) {
  neighbours_ = invariantNeighbours(sys_, events_.size());
}

std::vector<EventEstimate> Estimator::estimate(const std::vector<std::vector<Reading>>& readings, bool learn) {
  const size_t n = events_.size();
  std::vector<EventEstimate> out(n);
  std::vector<Series> ser(n);
  for (size_t i = 0; i < n; ++i) {
    ser[i] = seriesOf(readings[i]);
    out[i].plain = plainScaling(readings[i]);
    out[i].counted = ser[i].enabled > 0 ? std::min(1.0, ser[i].running / ser[i].enabled) : 1;
  }

  // Step 1-2: shortest-path choice of references, starting from time.
  std::vector<bool> done(n, false);
  std::vector<double> x(n, 0), relVar(n, 0), dof(n, 0);
  std::vector<Ratio> chosen(n);
  std::vector<int> ref(n, kReferenceNone);
  // Never enabled (a task that did not run in this interval): exactly 0.
  for (size_t i = 0; i < n; ++i)
    if (ser[i].enabled <= 0) {
      done[i] = true;
      ref[i] = kReferenceTime;
    }
  const double z = normalQuantile(0.5 + level_ / 2);
  for (size_t step = 0; step < n; ++step) {
    double best = std::numeric_limits<double>::infinity();
    int bi = -1, bk = kReferenceNone;
    Ratio br;
    double bx = 0, bnu = 0;
    for (size_t i = 0; i < n; ++i) {
      if (done[i] || ser[i].running <= 0) continue;
      double unsampled = ser[i].enabled > 0 ? std::max(0.0, 1 - ser[i].running / ser[i].enabled) : 1;
      auto consider = [&](int k, const std::vector<double>& zk, double xk, double rvK, double nuK) {
        Ratio r = ratio(ser[i], zk);
        if (!r.ok) return;
        auto it = pool_.find({static_cast<int>(i), k});
        double sumSq = r.sumSq + (it != pool_.end() ? it->second.sumSq : 0);
        double nu = r.dof + (it != pool_.end() ? it->second.dof : 0);
        double rv, drift = 0;
        if (unsampled <= 0) {
          rv = 0;  // counted the whole interval: no sampling error
          nu = std::max(nu, 1e9);
        } else if (nu < 1) {
          return;  // one slice and nothing pooled: no noise estimate
        } else {
          rv = sumSq / nu / r.n * unsampled;
          // The ratio also drifts between phases: the unsampled slices may
          // follow another one. Its size, from consecutive intervals.
          if (it != pool_.end() && it->second.driftN > 0)
            drift = it->second.driftSq / it->second.driftN / 2 * unsampled * unsampled;
        }
        double total = rv + rvK;
        // Compare widths, not variances: a few degrees of freedom cost.
        double nuT = welch(rv, nu, rvK, nuK);
        double width = total * std::pow(studentHalfWidth(level_, std::max(nuT, 1.0)) / z, 2);
        if (width < best) {
          best = width;
          bi = static_cast<int>(i);
          bk = k;
          br = r;
          br.relVar = rv + drift;  // chosen on the sampling error, reported with the drift
          br.dof = nu;
          bx = r.r * xk;
          bnu = nuT;
        }
      };
      std::vector<double> time(ser[i].z.size());
      for (size_t t = 0; t < time.size(); ++t) time[t] = readings[i][t].enabled;
      consider(kReferenceTime, time, ser[i].enabled, 0, 1e9);
      for (size_t k = 0; k < n; ++k) {
        if (!done[k] || k == i) continue;
        bool linked = std::find(neighbours_[i].begin(), neighbours_[i].end(), static_cast<int>(k)) != neighbours_[i].end();
        if (!linked && out[k].counted < kAnchorShare) continue;
        consider(static_cast<int>(k), ser[k].z, x[k], relVar[k], dof[k]);
      }
    }
    if (bi < 0) break;
    done[bi] = true;
    ref[bi] = bk;
    x[bi] = bx;
    relVar[bi] = br.relVar + (bk >= 0 ? relVar[bk] : 0);
    dof[bi] = bnu;
    chosen[bi] = br;
  }
  if (learn)
    for (size_t i = 0; i < n; ++i)
      if (done[i] && chosen[i].dof >= 1) {
        // Pool only this interval's own residuals (ratio() before pooling).
        Ratio own;
        std::vector<double> zk;
        if (ref[i] == kReferenceTime) {
          zk.resize(readings[i].size());
          for (size_t t = 0; t < zk.size(); ++t) zk[t] = readings[i][t].enabled;
        } else {
          zk = ser[ref[i]].z;
        }
        own = ratio(ser[i], zk);
        Pool& p = pool_[{static_cast<int>(i), ref[i]}];
        if (own.ok && own.n >= 2) {
          p.sumSq += own.sumSq;
          p.dof += own.n - 1;
        }
        if (own.ok && own.r > 0) {
          if (p.lastR > 0) {
            double d = (own.r - p.lastR) / (0.5 * (own.r + p.lastR));
            p.driftSq += d * d;
            p.driftN += 1;
          }
          p.lastR = own.r;
        }
      }

  // Step 3: Gaussian conditioning on the invariants.
  double scale = 1;
  for (size_t i = 0; i < n; ++i)
    if (done[i]) scale = std::max(scale, std::fabs(x[i]));
  const double unknownVar = std::pow(1e3 * scale, 2);
  std::vector<double> var(n);
  for (size_t i = 0; i < n; ++i) {
    if (!done[i]) {
      var[i] = unknownVar;
      continue;
    }
    double t = studentHalfWidth(level_, std::max(dof[i], 1.0)) / z;
    // Counted the whole interval: exact (a tiny variance keeps S regular).
    var[i] = relVar[i] > 0 ? (relVar[i] + kRelNoiseFloor) * x[i] * x[i] * t * t : 1e-12;
  }
  Posterior post = conditionOnInvariants(x, var, sys_);
  for (size_t i = 0; i < n; ++i) {
    EventEstimate& e = out[i];
    e.reference = ref[i];
    e.dof = done[i] ? dof[i] : 0;
    e.sd = post.sd(i);
    e.available = done[i] || e.sd < 1e-3 * std::sqrt(unknownVar);
    if (!e.available) {
      e.sd = 0;
      continue;
    }
    e.mean = std::max(0.0, post.mean[i]);
    e.lo = std::max(0.0, post.mean[i] - z * e.sd);
    e.hi = std::max(0.0, post.mean[i] + z * e.sd);
  }
  return out;
}

}  // namespace numaperf::counters
