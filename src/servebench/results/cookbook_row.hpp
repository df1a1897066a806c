#pragma once
// The SGLang cookbook benchmark row (docs/engines.md "SGLang cookbook benchmark rows"): the wire format servebench
// exports so measured points can be pasted into a cookbook `<model>-benchmarks.jsx`. Written here
// and nowhere else; the report and the recipe module both build rows through this header.
//
//   {"match": {...}, "sglang_version": "...", "latencyPercentile": "Mean",
//    "speed": [{"workload": {"dataset", "isl", "osl", "max_concurrency", "num_prompts"},
//               "ttft_ms", "tpot_ms", "tokens_per_sec_per_gpu"}],
//    "accuracy": {...}, "notes": "..."}
//
// tokens_per_sec_per_gpu is TOTAL (input + output) tok/s per GPU, as the cookbook defines it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/results/point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::results {

struct CookbookWorkload {
  std::string dataset = "random";
  std::int64_t isl = 0, osl = 0, max_concurrency = 0;
  std::optional<std::int64_t> num_prompts;  // absent: the cookbook falls back to numPromptsByConc
};

struct CookbookSpeed {
  CookbookWorkload workload;
  double ttft_ms = 0, tpot_ms = 0;    // mean (latencyPercentile "Mean")
  double tokens_per_sec_per_gpu = 0;  // total (input + output) tok/s per GPU
};

struct CookbookRow {
  // Cell key, e.g. {{"hw","gb300"},{"strategy","high-throughput"},{"quant","fp8"}}; order is kept.
  std::vector<std::pair<std::string, std::string>> match;
  std::string sglang_version;  // release, commit or "PR #N"; empty is written as ""
  std::string latency_percentile = "Mean";
  std::vector<CookbookSpeed> speed;                      // empty: a pending row (`{match}` only)
  std::vector<std::pair<std::string, double>> accuracy;  // e.g. {{"gsm8k_pct", 97.35}}; empty: omitted
  std::string notes;
};

// One speed entry from an `ok` ledger point: mean TTFT/TPOT and total tok/s per GPU. Total tok/s per
// GPU comes from the record; when the record lacks it, total tok/s ÷ gpus, else output tok/s ÷ gpus
// × (isl + osl) / osl (the cookbook's own formula). SB_CHECKs that the point is `ok`.
CookbookSpeed cookbook_speed_from_point(const PointRecord& p, std::string dataset = "random");

// The cookbook's `sglang_version` for an arm of `engine` that reported `version`: the version as is
// for SGLang; otherwise prefixed with the engine (`sim 0.1.0 (servebench serve-sim)`, `vllm 0.11.0`), so
// a simulator or another engine's version can never pass for an SGLang release. Empty stays empty.
std::string cookbook_engine_version(std::string_view engine, std::string_view version);

// The row as the cookbook writes it. Numbers are rounded as the cookbook shows them: ttft_ms and
// tokens_per_sec_per_gpu to 1 decimal, tpot_ms to 2 decimals (half away from zero).
boost::json::object to_json(const CookbookRow& row);
// Reads a row written by to_json (or by hand in a cookbook); fails (bad_input) naming the first
// missing or mistyped key. A row with only `match` is a valid pending row.
util::Result<CookbookRow> cookbook_row_from_json(const boost::json::object& o);

}  // namespace servebench::results
