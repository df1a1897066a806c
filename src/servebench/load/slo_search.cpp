#include "servebench/load/slo_search.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace servebench::load {
namespace {

using util::ErrorKind;

double next_up(const SearchSpec& s, double x) {
  const double up = std::min(s.high, x * 2);
  return s.kind == SearchKind::concurrency ? std::floor(up) : up;
}

double middle(const SearchSpec& s, double lo, double hi) {
  return s.kind == SearchKind::concurrency ? std::floor((lo + hi) / 2) : (lo + hi) / 2;
}

bool one_step(const SearchSpec& s, double lo, double hi) {
  return s.kind == SearchKind::concurrency ? hi - lo <= 1 : hi - lo <= s.rate_tolerance * lo;
}

std::string load_text(const SearchSpec& s, double x) {
  return s.kind == SearchKind::concurrency ? fmt::format("concurrency {}", x) : fmt::format("rate {:.4g} req/s", x);
}

}  // namespace

util::Result<void> check_search(const SearchSpec& s) {
  if (!(s.low > 0) || !(s.high >= s.low) || !std::isfinite(s.high)) {
    return util::failf(ErrorKind::bad_input, "the search needs 0 < --low <= --high (got {} and {})", s.low, s.high);
  }
  if (s.kind == SearchKind::concurrency && (s.low != std::floor(s.low) || s.high != std::floor(s.high))) {
    return util::fail(ErrorKind::bad_input, "a concurrency search needs whole --low and --high");
  }
  if (s.max_runs < 2 || s.max_runs > 100) return util::fail(ErrorKind::bad_input, "--max-runs must be in 2..100");
  if (!(s.rate_tolerance > 0 && s.rate_tolerance < 1)) {
    return util::fail(ErrorKind::bad_input, "--rate-tolerance must be in (0, 1)");
  }
  return {};
}

util::Result<SearchResult> search_boundary(const SearchSpec& s,
                                           const std::function<util::Result<bool>(double)>& evaluate) {
  if (auto ok = check_search(s); !ok) return std::unexpected(ok.error());
  SearchResult r;
  const auto run = [&](double x) -> util::Result<bool> {
    auto met = evaluate(x);
    if (!met) return met;
    r.runs.push_back({x, *met});
    if (*met) r.boundary = std::max(r.boundary.value_or(x), x);
    else r.first_miss = std::min(r.first_miss.value_or(x), x);
    return met;
  };
  const auto budget_left = [&] { return static_cast<int>(r.runs.size()) < s.max_runs; };
  // Ascent: low, then doubling, until a miss or the upper bound.
  double x = s.low;
  for (;;) {
    auto met = run(x);
    if (!met) return std::unexpected(met.error());
    if (!*met) break;
    if (x >= s.high) {
      r.converged = true;
      r.stop = fmt::format("the SLO is met at the upper bound ({})", load_text(s, s.high));
      return r;
    }
    if (!budget_left()) break;
    x = next_up(s, x);
  }
  if (!r.boundary) {
    r.converged = true;
    r.stop = fmt::format("the SLO is missed already at the lower bound ({})", load_text(s, s.low));
    return r;
  }
  // Bisection inside [boundary, first_miss).
  while (r.first_miss && !one_step(s, *r.boundary, *r.first_miss) && budget_left()) {
    auto met = run(middle(s, *r.boundary, *r.first_miss));
    if (!met) return std::unexpected(met.error());
  }
  if (!r.first_miss) {
    r.stop = fmt::format("run budget spent during the ascent; met up to {}", load_text(s, *r.boundary));
    return r;
  }
  r.step = *r.first_miss - *r.boundary;
  r.converged = one_step(s, *r.boundary, *r.first_miss);
  r.stop = r.converged ? fmt::format("bracketed to one step: met at {}, missed at {}", load_text(s, *r.boundary),
                                     load_text(s, *r.first_miss))
                       : fmt::format("run budget ({}) spent: met at {}, missed at {}", s.max_runs,
                                     load_text(s, *r.boundary), load_text(s, *r.first_miss));
  return r;
}

}  // namespace servebench::load
