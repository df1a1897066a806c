#pragma once
// `servebench sim validate`: predict each measured point with the cards (+ overrides) by replaying it
// as a closed loop on the virtual clock, and summarize the error per metric (docs/sim.md).
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/sim/measured_point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class Metric { ttft, tpot, total_per_gpu, output };
inline constexpr Metric k_metrics[] = {Metric::ttft, Metric::tpot, Metric::total_per_gpu, Metric::output};
const char* to_string(Metric m);  // "TTFT ms", "TPOT ms", "total tok/s/GPU", "output tok/s"
std::optional<double> measured(const MeasuredPoint& p, Metric m);

struct Prediction {
  double ttft_ms = 0, tpot_ms = 0, total_tok_s_per_gpu = 0, output_tok_s = 0;
  std::string accept;  // how speculation was set up ("5.34, source mean (α 0.953 at 5 steps)"), or "–"
  double value(Metric m) const;
};

// The point's SimConfig with `o` applied and, for speculation, the single acceptance rate that gives
// its accept length (measured, else the mean of its source's measured ones, else the card's rates).
util::Result<SimConfig> config_for(const MeasuredPoint& p, const std::vector<MeasuredPoint>& all,
                                   const EfficiencyOverrides& o, std::string* accept_note = nullptr);
util::Result<Prediction> predict(const MeasuredPoint& p, const std::vector<MeasuredPoint>& all,
                                 const EfficiencyOverrides& o);

struct MetricError {
  Metric metric = Metric::ttft;
  int n = 0;
  double mape = 0, p90 = 0, max = 0, bias = 0;  // percent; bias = mean signed error
};

struct PointResult {
  const MeasuredPoint* point = nullptr;
  Prediction predicted;
};

struct Validation {
  std::string fold = "all points";
  std::vector<PointResult> points;
  std::vector<MetricError> metrics;  // metrics with at least one measured value
};

// Signed error in percent, (predicted - measured) / measured.
double signed_error_pct(double predicted, double measured);
std::vector<MetricError> summarize(const std::vector<PointResult>& points);
util::Result<Validation> validate(const std::vector<MeasuredPoint>& points, const EfficiencyOverrides& o);

// Markdown: the per-point table (measured / predicted / signed error per metric), then the per-metric table.
std::string render_markdown(const Validation& v);
boost::json::object to_json(const Validation& v);

}  // namespace servebench::sim
