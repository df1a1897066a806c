#include "servebench/stats/welch.hpp"

#include <cmath>
#include <limits>

#include <boost/math/distributions/students_t.hpp>

namespace servebench::stats {
namespace {

struct Moments {
  double n = 0, mean = 0, var = 0;  // var: the unbiased sample variance
  bool finite = true;
};

Moments moments_of(std::span<const double> v) {
  Moments m;
  m.n = static_cast<double>(v.size());
  for (const double x : v) {
    m.finite = m.finite && std::isfinite(x);
    m.mean += x;
  }
  m.mean /= m.n;
  for (const double x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= m.n - 1;
  return m;
}

}  // namespace

double welch_p_value(std::span<const double> a, std::span<const double> b) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (a.size() < 2 || b.size() < 2) return nan;
  const Moments x = moments_of(a), y = moments_of(b);
  if (!x.finite || !y.finite) return nan;
  const double sx = x.var / x.n, sy = y.var / y.n;
  const double se2 = sx + sy;
  if (se2 <= 0) return x.mean == y.mean ? 1.0 : 0.0;
  const double t = (x.mean - y.mean) / std::sqrt(se2);
  const double df = se2 * se2 / (sx * sx / (x.n - 1) + sy * sy / (y.n - 1));
  const boost::math::students_t dist(df);
  return 2.0 * boost::math::cdf(boost::math::complement(dist, std::fabs(t)));
}

}  // namespace servebench::stats
