#pragma once
// Parsing of `servebench bench` option values whose syntax comes from sglang / vLLM (rates,
// goodput SLOs, percentile lists) and the defaults the CLI derives from the server. Errors are
// bad_input naming the flag.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "servebench/load/metrics.hpp"
#include "servebench/util/clock.hpp"

namespace servebench::load {

// "inf" (any case) → nullopt; a positive number → requests per second.
util::Result<std::optional<double>> parse_request_rate(std::string_view s);
// "50,90,95,99" → {50, 90, 95, 99}; each in (0, 100].
util::Result<std::vector<double>> parse_percentile_list(std::string_view s);
// vLLM's syntax: "ttft:500" "tpot:50" "e2e:10000" (also "e2el:"), milliseconds.
util::Result<GoodputSlo> parse_goodput(const std::vector<std::string>& items);
// sglang's default output name: "{backend}_{MMDD}_{n}_{in}_{out}.jsonl" for random datasets,
// "{backend}_{MMDD}_{n}_{dataset}.jsonl" otherwise (MMDD in UTC).
std::string default_output_name(std::string_view backend, std::string_view dataset, std::int64_t num_prompts,
                                 std::int64_t input_len, std::int64_t output_len, util::WallTime now);
// GPUs from an SGLang-style /server_info: tp_size × pp_size; nullopt when absent.
std::optional<int> gpus_from_server_info(const boost::json::value& server_info);

}  // namespace servebench::load
