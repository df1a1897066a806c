#pragma once
// Measured points from a bench result JSONL: one benchmark run per line, as `servebench bench`,
// `python -m sglang.bench_serving --output-file` and `vllm bench serve --save-result` write them
// (docs/sim.md "sim validate and sim calibrate"). A line gives the load and the means, not the
// deployment: every point gets `served_by`, the configuration its server ran.
//   prompt / output length = total_input_tokens / completed, total_output_tokens / completed
//   concurrency = max_concurrency (lines with a finite request_rate or no cap are open loop: skipped)
//   ttft, tpot = mean_ttft_ms, mean_tpot_ms; output tok/s = output_throughput;
//   total tok/s/GPU = total_throughput (vLLM: total_token_throughput) / gpus;
//   accept length = accept_length (vLLM: spec_decode_acceptance_length)
// Python writes an unbounded rate as the bare literal Infinity, which JSON lacks: read as "inf".
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/sim/measured_point.hpp"

namespace servebench::sim {

// True when the text's first non-empty line is a bench result (it has "mean_ttft_ms").
bool is_bench_results(std::string_view text);

// What served a run: its deployment and how many GPUs its throughput is divided by.
struct ServedBy {
  SimConfig config;
  int gpus = 1;
};
// The caller's rule for a line (`where` is file:line, for errors): one fixed deployment, or the one
// the line's own server_info describes (server_info_launch.hpp).
using ServedByLine = std::function<util::Result<ServedBy>(const boost::json::object& line, const std::string& where)>;

// The closed-loop runs of a bench result JSONL; errors name file:line and the key (bad_input), and a
// file with no closed-loop line is an error.
util::Result<std::vector<MeasuredPoint>> parse_bench_points(const std::string& text, const std::string& file,
                                                            const ServedByLine& served_by);
// The same with every run served by one deployment.
util::Result<std::vector<MeasuredPoint>> parse_bench_points(const std::string& text, const std::string& file,
                                                            const SimConfig& served_by, int gpus);

// `line` with Python's bare Infinity, -Infinity and NaN outside strings written as strings ("inf",
// "-inf", "nan"), so a JSON parser takes it.
std::string quote_python_literals(std::string_view line);

}  // namespace servebench::sim
