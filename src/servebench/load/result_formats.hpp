#pragma once
// The run's result as one JSON object: sglang bench_serving's keys (docs/formats.md "bench results") or
// vLLM bench serve's, plus servebench's own keys (schema, definitions, client health, cache, …).
// `--output-file` appends it as one line. Undefined statistics are null.
#include <cstdint>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "servebench/load/run_result.hpp"
#include "servebench/stats/summary.hpp"

namespace servebench::load {

inline constexpr std::string_view k_bench_schema = "servebench.bench/1";

enum class OutputFormat { sglang, vllm };
enum class Details { summary, per_request };  // per_request: --output-details arrays

// Arguments sglang echoes into its result that only the output needs.
struct OutputLabels {
  std::string dataset_name = "random";
  std::optional<std::int64_t> random_input_len{}, random_output_len{}, sharegpt_output_len{};
  double random_range_ratio = 1.0;
  std::string tag;
};

boost::json::object sglang_result(const RunResult& r, const OutputLabels& labels, Details details);
boost::json::object vllm_result(const RunResult& r, const OutputLabels& labels, Details details);
inline boost::json::object format_result(OutputFormat f, const RunResult& r, const OutputLabels& labels, Details d) {
  return f == OutputFormat::sglang ? sglang_result(r, labels, d) : vllm_result(r, labels, d);
}

// servebench's own keys, present in both formats.
boost::json::object servebench_keys(const RunResult& r);
// "mean_<name>_ms", "median_<name>_ms", "std_<name>_ms", "p<P>_<name>_ms" for every computed P,
// and "max_<name>_ms".
void add_stat_keys(boost::json::object& out, std::string_view name, const stats::Summary& s);
// "p99", "p99.9": how percentile keys are spelled (vLLM's convention).
std::string percentile_key(double p);

}  // namespace servebench::load
