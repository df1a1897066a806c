#pragma once
// JSON a generation server sends, encoded straight into a caller buffer (appended; the caller
// clears and reuses it, so steady-state encoding does not allocate). SSE framing ("data: ",
// blank line, [DONE]) belongs to the HTTP layer. Shapes follow SGLang's OpenAI and native routes.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/wire/wire_types.hpp"

namespace servebench::wire {

// Identity repeated in every chunk of one response.
struct ResponseHeader {
  std::string_view id;     // "cmpl-…" / "chatcmpl-…"
  std::string_view model;
  std::int64_t created = 0;  // Unix seconds
};

struct ChunkBody {
  std::string_view text;  // completion text / chat content
  FinishReason finish = FinishReason::none;
  const Usage* usage = nullptr;         // continuous usage stats on this chunk
  std::optional<std::int64_t> emit_ns;  // sb_emit_ns, when the simulator stamps chunks
  std::int64_t index = 0;               // choices[0].index: the prompt's place in a batch
};

enum class ResponseKind { completion, chat };

// One OpenAI tool call (the simulator's oracle calls a requested function).
struct ToolCall {
  std::string_view id;         // "call_…"
  std::string_view name;       // function.name
  std::string_view arguments;  // function.arguments: JSON text, sent as a string
};

// One choice of a non-stream response.
struct ResponseChoice {
  std::string_view text;
  FinishReason finish = FinishReason::none;
};

// {"id","object":"text_completion","created","model","choices":[{"index":0,"text",…,"finish_reason"}]}
void encode_completion_chunk(std::string& out, const ResponseHeader& header, const ChunkBody& body);
// chat.completion.chunk with delta {"content": text}.
void encode_chat_chunk(std::string& out, const ResponseHeader& header, const ChunkBody& body);
// The first chat chunk real servers send: delta {"role":"assistant","content":""}; not a token.
void encode_chat_role_chunk(std::string& out, const ResponseHeader& header, std::optional<std::int64_t> emit_ns);
// The final usage chunk: "choices":[] and usage with prompt_tokens_details.cached_tokens.
void encode_usage_chunk(std::string& out, ResponseKind kind, const ResponseHeader& header, const Usage& usage,
                        std::optional<std::int64_t> emit_ns);
// Non-stream text_completion / chat.completion bodies.
void encode_completion_response(std::string& out, ResponseKind kind, const ResponseHeader& header,
                                std::string_view text, FinishReason finish, const Usage& usage);
// The non-stream body for a batched prompt: choices[i] (index i) answers prompt i; `usage` is the
// batch total. `choices` must not be empty.
void encode_batch_completion_response(std::string& out, ResponseKind kind, const ResponseHeader& header,
                                      std::span<const ResponseChoice> choices, const Usage& usage);

// chat.completion.chunk whose delta carries the whole call ({"tool_calls":[{index 0, id, type
// "function", function}]}) and finish_reason "tool_calls".
void encode_tool_call_chunk(std::string& out, const ResponseHeader& header, const ToolCall& call,
                            std::optional<std::int64_t> emit_ns);
// Non-stream chat.completion whose message carries the call (content null), finish "tool_calls".
void encode_tool_call_response(std::string& out, const ResponseHeader& header, const ToolCall& call,
                               const Usage& usage);

// SGLang /generate object (one stream chunk or the non-stream body): text, output_ids, meta_info.
struct GenerateOutput {
  std::string_view id;
  std::string_view text;
  std::span<const std::int32_t> output_ids;
  SglangMeta meta;
  std::optional<std::int64_t> emit_ns;
  std::optional<std::int64_t> index;  // "index": the prompt's place in a batch (SGLang marks its items)
};
void encode_generate(std::string& out, const GenerateOutput& output);
// The non-stream /generate body for a batched prompt: a JSON array of the objects, in order.
void encode_generate_batch(std::string& out, std::span<const GenerateOutput> outputs);

// {"object":"error","message":…,"type":…,"param":null,"code":…} (SGLang/OpenAI error body).
void encode_error(std::string& out, std::string_view message, int code = 400, std::string_view type = "BadRequestError");

// /tokenize and /detokenize responses (SGLang keys).
void encode_tokenize_response(std::string& out, std::span<const std::int32_t> tokens, std::int64_t max_model_len);
void encode_detokenize_response(std::string& out, std::string_view text);
// Batch forms: {"tokens":[[..],..],"count":[..],"max_model_len":M} and {"text":[..]}.
void encode_batch_tokenize_response(std::string& out, std::span<const std::vector<std::int32_t>> tokens,
                                    std::int64_t max_model_len);
void encode_batch_detokenize_response(std::string& out, std::span<const std::string> texts);

}  // namespace servebench::wire
