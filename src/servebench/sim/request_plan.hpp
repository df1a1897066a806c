#pragma once
// From a parsed inference request to what the simulator will do: the engine requests (prompt ids,
// sampling) and the shape of the answer. Pure: runs on the HTTP thread, tested without sockets.
// Prompts: text gets BOS (when the model has one) like SGLang's tokenizer; token ids pass as they
// are; chat messages go through the documented template (render_chat). With the oracle on, a
// word problem is answered (oracle.hpp) and a chat request with tools calls the first tool.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "servebench/sim/request.hpp"
#include "servebench/sim/tokenizer.hpp"
#include "servebench/wire/server_request.hpp"

namespace servebench::sim {

enum class OracleMode { off, on };

struct PlanOptions {
  OracleMode oracle = OracleMode::off;
  bool default_include_usage = false;  // --stream-response-default-include-usage
  std::int64_t context_length = 0;     // chat without max_tokens may use the rest of the context
};

// Default max_tokens when a request names none: OpenAI completions 16, /generate 128 (SGLang's
// defaults); chat takes the rest of the context (at least 1).
inline constexpr std::int64_t k_default_completion_tokens = 16;
inline constexpr std::int64_t k_default_generate_tokens = 128;

struct RequestPlan {
  wire::ServerRoute route = wire::ServerRoute::completions;
  bool stream = false, batch = false;
  bool include_usage = false, continuous_usage = false;
  std::vector<std::string> stop;         // stop strings (matched on the generated text)
  std::vector<SimRequest> items;         // one engine request per prompt, in order
  std::optional<std::string> tool_call;  // the function the reply calls (oracle with tools)
};

// Never fails: the parser validated the fields, and length limits are the engine's to check.
RequestPlan plan_request(const wire::InferenceRequest& request, const Tokenizer& tokenizer, const PlanOptions& options,
                         const std::optional<std::string>& first_tool);

// The chat template: "<|role|>\n" + content + "\n" per message, then "<|assistant|>\n".
std::string render_chat(std::span<const wire::ChatMessage> messages);

// The text the oracle reads: chat contents joined by "\n", a text prompt, or detokenized ids.
std::string oracle_text(const wire::InferenceRequest& request, std::size_t item, const Tokenizer& tokenizer);

}  // namespace servebench::sim
