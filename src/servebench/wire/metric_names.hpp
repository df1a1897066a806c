#pragma once
// SGLang's Prometheus metric names (GET /metrics), spelled once for both sides: the sglang and sim
// adapters read them, the simulator writes them. The two spec counters exist only on the
// simulator (SGLang reports speculative verify steps per request, in meta_info.spec_verify_ct).
#include <string_view>

namespace servebench::wire::sglang_metric {

// Counters.
inline constexpr std::string_view k_prompt_tokens_total = "sglang:prompt_tokens_total";
inline constexpr std::string_view k_cached_tokens_total = "sglang:cached_tokens_total";
inline constexpr std::string_view k_generation_tokens_total = "sglang:generation_tokens_total";
inline constexpr std::string_view k_num_requests_total = "sglang:num_requests_total";
inline constexpr std::string_view k_num_retracted_reqs_total = "sglang:num_retracted_reqs_total";
inline constexpr std::string_view k_spec_verify_ct_total = "sglang:spec_verify_ct_total";              // simulator
inline constexpr std::string_view k_spec_accepted_tokens_total = "sglang:spec_accepted_tokens_total";  // simulator

// Gauges.
inline constexpr std::string_view k_num_running_reqs = "sglang:num_running_reqs";
inline constexpr std::string_view k_num_queue_reqs = "sglang:num_queue_reqs";
inline constexpr std::string_view k_num_used_tokens = "sglang:num_used_tokens";
inline constexpr std::string_view k_token_usage = "sglang:token_usage";
inline constexpr std::string_view k_max_total_num_tokens = "sglang:max_total_num_tokens";
inline constexpr std::string_view k_gen_throughput = "sglang:gen_throughput";
inline constexpr std::string_view k_spec_accept_length = "sglang:spec_accept_length";

// The simulator's own diagnostics (no SGLang counterpart): a histogram (`_bucket{le=…}`, `_sum`,
// `_count`) of how late the engine loop handed out each step's chunks against its schedule.
inline constexpr std::string_view k_sim_step_lateness_seconds = "servebench:sim_step_lateness_seconds";
// A simulated decode server of a disaggregated deployment: prompts whose KV it received, their
// tokens, and the (virtual) seconds from pool allocation until the KV had arrived, summed.
inline constexpr std::string_view k_kv_transfers_total = "servebench:kv_transfers_total";
inline constexpr std::string_view k_kv_transfer_tokens_total = "servebench:kv_transfer_tokens_total";
inline constexpr std::string_view k_kv_transfer_seconds_total = "servebench:kv_transfer_seconds_total";

}  // namespace servebench::wire::sglang_metric
