#include "servebench/report/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace servebench::report {

std::vector<ScenarioTable> scenario_tables(const CampaignSet& set) {
  std::vector<std::set<Level>> levels(set.scenarios.size());
  for (const auto& p : set.points) levels[p.scenario].insert({p.record.concurrency, p.record.request_rate});
  std::vector<ScenarioTable> out;
  for (std::size_t s = 0; s < set.scenarios.size(); ++s) {
    // std::optional orders nullopt first, so closed loop precedes open loop at the same concurrency.
    out.push_back({s, std::vector<Level>(levels[s].begin(), levels[s].end())});
  }
  return out;
}

bool is_ok(const MeasuredPoint* p) { return p != nullptr && p->record.status == results::PointStatus::ok; }

double ratio(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b) || b == 0) return std::numeric_limits<double>::quiet_NaN();
  return a / b;
}

double interactivity(const results::PointRecord& r) { return ratio(1000.0, r.tpot_ms.mean); }

double total_per_gpu(const results::PointRecord& r) {
  if (std::isfinite(r.throughput.total_tok_per_s_per_gpu)) return r.throughput.total_tok_per_s_per_gpu;
  return ratio(r.throughput.total_tok_per_s, r.gpus);
}

double median(std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace servebench::report
