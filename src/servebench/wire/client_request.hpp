#pragma once
// Request bodies the load generator sends, for every backend route, from one request struct.
// Backend names follow sglang bench_serving. What each engine accepts is decided here only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::wire {

enum class Backend { sglang, sglang_oai, sglang_oai_chat, vllm, vllm_chat, llamacpp, trtllm, openai, openai_chat, sim };
// "sglang", "sglang-oai", "sglang-oai-chat", "vllm", "vllm-chat", "llamacpp", "trtllm", "openai",
// "openai-chat", "sim".
std::string_view to_string(Backend b);
// Fails (bad_input) listing the accepted names.
util::Result<Backend> parse_backend(std::string_view name);

enum class Route { completions, chat_completions, generate };
Route route_of(Backend b);
std::string_view path_of(Route r);  // "/v1/completions", "/v1/chat/completions", "/generate"

// Optional request fields each backend's server understands (others are left out, never sent:
// trtllm-serve rejects unknown fields with 400).
struct BackendFeatures {
  bool min_tokens = false;
  bool continuous_usage = false;  // stream_options.continuous_usage_stats
  bool include_usage = false;     // stream_options.include_usage
  bool cache_prompt = false;      // llama.cpp per-request prompt cache switch
};
BackendFeatures features_of(Backend b);

struct ChatMessage {
  std::string role, content;
  friend bool operator==(const ChatMessage&, const ChatMessage&) = default;
};
using TokenIds = std::vector<std::int32_t>;
using Prompt = std::variant<TokenIds, std::string, std::vector<ChatMessage>>;

struct GenerationRequest {
  Prompt prompt;
  std::string model;                      // not sent on /generate
  std::int64_t max_tokens = 256;
  std::optional<std::int64_t> min_tokens;  // sent only where supported
  bool ignore_eos = false;
  std::optional<double> temperature;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> stop;
  bool stream = true;
  bool include_usage = true;      // final usage chunk (OpenAI routes, streaming)
  bool continuous_usage = false;  // usage on every chunk, where supported
  bool cache_prompt = true;       // llama.cpp: false for cold-cache runs
  std::string extra_body;         // a JSON object; its top-level keys replace ours
};

// Writes the JSON body for `backend` into `out` (cleared first, capacity reused). Fails
// (bad_input) when the prompt kind does not fit the route (chat messages on a completions route,
// token ids on a chat route) or extra_body is not a JSON object.
util::Result<void> build_request_body(Backend backend, const GenerationRequest& request, std::string& out);

}  // namespace servebench::wire
