#pragma once
// Wire shapes the simulator serves that api's response encoder does not write (yet): the index of a
// batch item, batch tokenize/detokenize bodies, joined batch responses and OpenAI tool calls, and
// reading a chat request's `tools`. Kept together in this one file so they can move into
// api/response_encoder.hpp and api/server_request.hpp as a whole.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/api/response_encoder.hpp"

namespace servebench::sim::wire {

// Rewrites choices[0].index of an encoded completion/chat chunk (api always writes 0).
void set_choice_index(std::string& json, std::size_t index);
// Adds "index": i to an encoded /generate object, as SGLang marks the items of a batch.
void add_generate_index(std::string& json, std::size_t index);
// One non-stream response from the single-choice responses of a batch: choices in order (index i),
// usage summed. Inputs come from api's encoder, so they parse.
std::string join_choices(std::span<const std::string> responses);

// The first tool's function name in a chat request body ({"tools":[{"type":"function",
// "function":{"name":...}}]}); nullopt when the body has no usable tools.
std::optional<std::string> first_tool_name(std::string_view body);

struct ToolCall {
  std::string_view call_id, name, arguments;
};
// chat.completion.chunk with delta.tool_calls = [{index 0, id, type "function", function}] and
// finish_reason "tool_calls".
void encode_tool_call_chunk(std::string& out, const api::ResponseHeader& header, const ToolCall& call,
                            std::optional<std::int64_t> emit_ns);
// chat.completion whose message carries the tool call (content null), finish_reason "tool_calls".
void encode_tool_call_response(std::string& out, const api::ResponseHeader& header, const ToolCall& call,
                               const api::Usage& usage);

// SGLang's batch forms: {"tokens":[[..],..],"count":[..],"max_model_len":M} and {"text":[..]}.
void encode_batch_tokenize(std::string& out, std::span<const std::vector<std::int32_t>> tokens,
                           std::int64_t max_model_len);
void encode_batch_detokenize(std::string& out, std::span<const std::string> texts);

}  // namespace servebench::sim::wire
