#pragma once
// Measured points the simulator is validated and calibrated against (docs/sim.md "sim validate"):
// one JSON object per line, the flat benchmark-row layout of data/calibration/*.jsonl:
//   {"source", "model", "hw", "engine"? (sglang | vllm | llamacpp, default sglang), "gpus", "tp", "ep", "kv", "spec": null | {"algorithm", "steps", "topk",
//    "draft_tokens", "adaptive", "accept_length"?}, "isl", "osl", "concurrency", "num_prompts",
//    "ttft_ms_mean", "tpot_ms_mean", "total_tok_per_s_per_gpu", "output_tok_per_s"?}
// Any metric may be absent (it is then not compared). Unknown keys are kept for labels only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "servebench/sim/sim_config.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

struct MeasuredPoint {
  std::string source, label;  // label: "1024→256 C16 high-throughput EP4 bf16-tilelang"
  SimConfig config;           // cards, parallelism, KV dtype and speculation of the row
  std::int64_t isl = 0, osl = 0;
  int concurrency = 0, num_prompts = 0;
  std::optional<double> accept_length;  // measured tokens per verify step
  std::optional<double> ttft_ms, tpot_ms, total_tok_s_per_gpu, output_tok_s;
};

// Parses the JSONL text; errors name file:line and the field (bad_input).
util::Result<std::vector<MeasuredPoint>> parse_measured_points(const std::string& text, const std::string& file);

}  // namespace servebench::sim
