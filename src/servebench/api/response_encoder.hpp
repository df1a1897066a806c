#pragma once
// JSON a generation server sends, encoded straight into a caller buffer (appended; the caller
// clears and reuses it, so steady-state encoding does not allocate). SSE framing ("data: ",
// blank line, [DONE]) belongs to the HTTP layer. Shapes follow SGLang's OpenAI and native routes.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "servebench/api/wire_types.hpp"

namespace servebench::api {

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
};

enum class ResponseKind { completion, chat };

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

// SGLang /generate object (one stream chunk or the non-stream body): text, output_ids, meta_info.
struct GenerateOutput {
  std::string_view id;
  std::string_view text;
  std::span<const std::int32_t> output_ids;
  SglangMeta meta;
  std::optional<std::int64_t> emit_ns;
};
void encode_generate(std::string& out, const GenerateOutput& output);

// {"object":"error","message":…,"type":…,"param":null,"code":…} (SGLang/OpenAI error body).
void encode_error(std::string& out, std::string_view message, int code = 400, std::string_view type = "BadRequestError");

// /tokenize and /detokenize responses (SGLang keys).
void encode_tokenize_response(std::string& out, std::span<const std::int32_t> tokens, std::int64_t max_model_len);
void encode_detokenize_response(std::string& out, std::string_view text);

}  // namespace servebench::api
