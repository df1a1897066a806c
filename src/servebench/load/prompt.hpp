#pragma once
// A prompt as the load generator sends it: token ids (exact input length, no tokenizer needed),
// text, or a chat conversation; plus the output length to request.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace servebench::load {

struct ChatMessage {
  std::string role;  // "system" | "user" | "assistant"
  std::string content;
};

struct Prompt {
  std::vector<std::int32_t> ids;      // token-id prompt; empty for text or chat prompts
  std::string text;                   // text prompt (custom, sharegpt, ids realigned to text)
  std::vector<ChatMessage> messages;  // chat prompt (custom conversations); empty otherwise
  std::int64_t input_tokens = 0;      // planned input length; 0 when not known before sending
  std::int64_t output_tokens = 0;     // max tokens requested (> 0)
  // Multi-turn conversations (docs/metrics.md "Conversations"): the turn (1-based; 0 outside a
  // conversation), the previous turn's index among the measured prompts — this prompt is sent only
  // after that one ended, on its concurrency slot — and the think time in between.
  std::int32_t turn = 0;
  std::optional<std::uint32_t> after{};
  std::chrono::nanoseconds think{0};
};

// The content of a prompt as one string: `text`, or the messages' contents joined with '\n'.
std::string prompt_text(const Prompt& p);

}  // namespace servebench::load
