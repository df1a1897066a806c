#include "servebench/report/repeat_spread.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>

namespace servebench::report {
namespace {

using results::PointRecord;
using results::PointStatus;

using GroupKey = std::tuple<std::string, std::string, std::int64_t, std::int64_t, std::int64_t, std::optional<double>>;

GroupKey group_of(const PointRecord& r) { return {r.arm, r.scenario, r.isl, r.osl, r.concurrency, r.request_rate}; }

// The median of one field over the ok repeats (finite values only); NaN when none is finite.
template <class Get>
double median_field(const std::vector<const PointRecord*>& ok, Get get) {
  std::vector<double> v;
  for (const auto* r : ok) {
    const double x = get(*r);
    if (std::isfinite(x)) v.push_back(x);
  }
  return v.empty() ? std::numeric_limits<double>::quiet_NaN() : stats::median_of(v);
}

template <class Get>
MetricSpread spread_of(const std::vector<const PointRecord*>& ok, Get get) {
  std::vector<double> v;
  for (const auto* r : ok) {
    const double x = get(*r);
    if (std::isfinite(x)) v.push_back(x);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (v.empty()) return {nan, nan, {nan, nan}, {}};
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi, stats::bootstrap_median(v), v};
}

void median_latency(results::LatencyStats& out, const std::vector<const PointRecord*>& ok,
                    results::LatencyStats PointRecord::*field) {
  out.mean = median_field(ok, [&](const PointRecord& r) { return (r.*field).mean; });
  out.median = median_field(ok, [&](const PointRecord& r) { return (r.*field).median; });
  out.std = median_field(ok, [&](const PointRecord& r) { return (r.*field).std; });
  out.p90 = median_field(ok, [&](const PointRecord& r) { return (r.*field).p90; });
  out.p95 = median_field(ok, [&](const PointRecord& r) { return (r.*field).p95; });
  out.p99 = median_field(ok, [&](const PointRecord& r) { return (r.*field).p99; });
  out.max = median_field(ok, [&](const PointRecord& r) { return (r.*field).max; });
}

std::optional<double> median_optional(const std::vector<const PointRecord*>& ok,
                                      std::optional<double> PointRecord::*field) {
  const double m = median_field(ok, [&](const PointRecord& r) {
    return (r.*field).value_or(std::numeric_limits<double>::quiet_NaN());
  });
  return std::isfinite(m) ? std::optional<double>(m) : std::nullopt;
}

PointRecord median_record(const std::vector<const PointRecord*>& ok) {
  const auto out_of = [](const PointRecord& r) { return r.throughput.output_tok_per_s; };
  const double mid = median_field(ok, out_of);
  const PointRecord* nearest = ok.front();
  for (const auto* r : ok) {
    if (std::abs(out_of(*r) - mid) < std::abs(out_of(*nearest) - mid)) nearest = r;
  }
  PointRecord m = *nearest;
  m.repeat.reset();
  auto& t = m.throughput;
  t.request_per_s = median_field(ok, [](const PointRecord& r) { return r.throughput.request_per_s; });
  t.input_tok_per_s = median_field(ok, [](const PointRecord& r) { return r.throughput.input_tok_per_s; });
  t.output_tok_per_s = mid;
  t.total_tok_per_s = median_field(ok, [](const PointRecord& r) { return r.throughput.total_tok_per_s; });
  t.output_tok_per_s_per_gpu = median_field(ok, [](const PointRecord& r) { return r.throughput.output_tok_per_s_per_gpu; });
  t.total_tok_per_s_per_gpu = median_field(ok, [](const PointRecord& r) { return r.throughput.total_tok_per_s_per_gpu; });
  median_latency(m.ttft_ms, ok, &PointRecord::ttft_ms);
  median_latency(m.tpot_ms, ok, &PointRecord::tpot_ms);
  median_latency(m.itl_ms, ok, &PointRecord::itl_ms);
  median_latency(m.e2e_ms, ok, &PointRecord::e2e_ms);
  m.accept_length = median_optional(ok, &PointRecord::accept_length);
  m.cache.hit_rate = median_field(ok, [](const PointRecord& r) {
    return r.cache.hit_rate.value_or(std::numeric_limits<double>::quiet_NaN());
  });
  if (!std::isfinite(*m.cache.hit_rate)) m.cache.hit_rate.reset();
  m.cache.attempts = 1;
  for (const auto* r : ok) m.cache.attempts = std::max(m.cache.attempts, r->cache.attempts);
  return m;
}

}  // namespace

std::vector<PointRecord> collapse_repeats(std::vector<PointRecord> records,
                                          std::vector<std::optional<RepeatSpread>>& spreads) {
  std::map<GroupKey, std::vector<std::size_t>> groups;
  std::vector<GroupKey> order;
  std::vector<PointRecord> out;
  // First pass: where each point goes, in first-appearance order.
  std::vector<std::pair<bool, std::size_t>> layout;  // (is group, record index or group number)
  std::map<GroupKey, std::size_t> group_number;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!records[i].repeat) {
      layout.emplace_back(false, i);
      continue;
    }
    const GroupKey k = group_of(records[i]);
    const auto [it, added] = group_number.try_emplace(k, order.size());
    if (added) {
      order.push_back(k);
      layout.emplace_back(true, it->second);
    }
    groups[k].push_back(i);
  }
  spreads.clear();
  for (const auto& [is_group, n] : layout) {
    if (!is_group) {
      out.push_back(std::move(records[n]));
      spreads.emplace_back(std::nullopt);
      continue;
    }
    const auto& members = groups[order[n]];
    std::vector<const PointRecord*> ok;
    for (const auto i : members) {
      if (records[i].status == PointStatus::ok) ok.push_back(&records[i]);
    }
    RepeatSpread s;
    s.repeats = static_cast<std::int64_t>(members.size());
    s.ok = static_cast<std::int64_t>(ok.size());
    if (ok.empty()) {
      PointRecord last = records[members.back()];
      last.repeat.reset();
      out.push_back(std::move(last));
    } else {
      s.output_tok_per_s = spread_of(ok, [](const PointRecord& r) { return r.throughput.output_tok_per_s; });
      s.tpot_ms_mean = spread_of(ok, [](const PointRecord& r) { return r.tpot_ms.mean; });
      out.push_back(median_record(ok));
    }
    spreads.emplace_back(s);
  }
  return out;
}

}  // namespace servebench::report
