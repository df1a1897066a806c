#pragma once
// Values carried by the OpenAI/SGLang/llama.cpp wire format in both directions: the client parses
// them out of responses (chunk_parser.hpp), the simulator encodes them (response_encoder.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "servebench/util/clock.hpp"

namespace servebench::wire {

enum class FinishReason { none, length, stop, abort, tool_calls, other };
// "length", "stop", "abort", "tool_calls", "other"; none -> "".
std::string_view to_string(FinishReason r);
// OpenAI finish_reason strings and SGLang finish_reason.type; llama.cpp's "eos"/"word" are stops,
// "limit" is length; anything else -> other.
FinishReason parse_finish_reason(std::string_view s);

// The `usage` object (OpenAI shape; cached tokens from prompt_tokens_details).
struct Usage {
  std::optional<std::int64_t> prompt_tokens, completion_tokens, cached_tokens;
  friend bool operator==(const Usage&, const Usage&) = default;
};

// SGLang's meta_info.finish_reason.matched: the stop token id (EOS or a stop_token_ids entry) or
// the stop string that ended the output.
using MatchedStop = std::variant<std::int64_t, std::string>;

// SGLang native /generate `meta_info` (per request: exact cache and speculative data).
struct SglangMeta {
  std::optional<std::int64_t> prompt_tokens, completion_tokens, cached_tokens, spec_verify_ct;
  std::optional<std::int64_t> cached_device, cached_host, cached_storage;  // cached_tokens_details
  std::optional<util::Nanos> e2e_latency;
  FinishReason finish = FinishReason::none;  // finish_reason.type
  std::optional<std::int64_t> finish_length;   // finish_reason.length
  std::optional<MatchedStop> finish_matched;   // finish_reason.matched
  friend bool operator==(const SglangMeta&, const SglangMeta&) = default;
};

// llama.cpp `timings` (attached to the last chunk / the response).
struct LlamaTimings {
  std::optional<std::int64_t> cache_n, prompt_n, predicted_n, draft_n, draft_n_accepted;
  std::optional<util::Nanos> prompt_time, predicted_time;
  friend bool operator==(const LlamaTimings&, const LlamaTimings&) = default;
};

// An error object inside a stream or as a response body.
struct WireError {
  std::int64_t code = 0;
  std::string message;
  friend bool operator==(const WireError&, const WireError&) = default;
};

}  // namespace servebench::wire
