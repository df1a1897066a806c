#pragma once
// Requests as an SGLang-compatible server receives them (the simulator's routes), parsed into
// structs. Validation errors are bad_input and name the field ("max_tokens: expected ...").
// Unknown fields are ignored, as SGLang does.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "servebench/util/result.hpp"
#include "servebench/wire/client_request.hpp"

namespace servebench::wire {

enum class ServerRoute { completions, chat_completions, generate };

using PromptInput = std::variant<std::string, TokenIds>;

struct InferenceRequest {
  ServerRoute route = ServerRoute::completions;
  std::vector<PromptInput> prompts;   // completions and /generate: one per batch item
  bool batch = false;                 // the prompt was a list of prompts
  std::vector<ChatMessage> messages;  // chat
  std::vector<std::string> tool_names;  // chat: tools[].function.name, in order
  std::string model;
  std::optional<std::int64_t> max_tokens;  // max_tokens | max_completion_tokens | max_new_tokens
  std::int64_t min_tokens = 0;             // min_tokens | min_new_tokens
  bool ignore_eos = false;
  std::optional<double> temperature;
  std::optional<std::uint64_t> seed;       // seed | sampling_seed
  std::vector<std::string> stop;
  bool stream = false;
  bool include_usage = false;     // stream_options.include_usage
  bool continuous_usage = false;  // stream_options.continuous_usage_stats
};

// POST /v1/completions, /v1/chat/completions, /generate bodies.
util::Result<InferenceRequest> parse_inference_request(ServerRoute route, std::string_view body);

// POST /tokenize (= /v1/tokenize): {"prompt": "text" | ["a","b"], "add_special_tokens": true}.
struct TokenizeRequest {
  std::vector<std::string> prompts;
  bool batch = false;
  bool add_special_tokens = true;
};
util::Result<TokenizeRequest> parse_tokenize_request(std::string_view body);

// POST /detokenize (= /v1/detokenize): {"tokens": [..] | [[..]], "skip_special_tokens": true}.
struct DetokenizeRequest {
  std::vector<TokenIds> tokens;
  bool batch = false;
  bool skip_special_tokens = true;
};
util::Result<DetokenizeRequest> parse_detokenize_request(std::string_view body);

}  // namespace servebench::wire
