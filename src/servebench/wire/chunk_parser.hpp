#pragma once
// Parses what a generation server sends back — one SSE event's data, or a whole non-stream body —
// into one small struct: is it [DONE], is it token-bearing, how many generated tokens it carries,
// finish reason, usage, SGLang meta_info, llama.cpp timings, an error, the simulator's emission
// stamp. One parser per stream (it keeps the running counts that turn cumulative fields into
// deltas); after warm-up it parses without allocating (except a last chunk whose meta_info names a
// matched stop string longer than std::string's inline buffer).
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "servebench/util/result.hpp"
#include "servebench/wire/wire_types.hpp"

namespace servebench::wire {

// Where Chunk::tokens came from, most exact first.
enum class TokenCountSource {
  none,         // not token-bearing
  native,       // Δ meta_info.completion_tokens (SGLang /generate)
  usage_delta,  // Δ usage.completion_tokens (continuous usage stats)
  token_ids,    // length of choices[].token_ids
  assumed_one,  // one token per token-bearing chunk
  response,     // a non-stream response: its completion token count
};

struct Chunk {
  bool done = false;           // data: [DONE]
  bool token_bearing = false;  // text, content, reasoning or tool-call text (a role-only chunk is not)
  std::int64_t tokens = 0;     // generated tokens in this chunk (or in the response)
  TokenCountSource source = TokenCountSource::none;
  FinishReason finish = FinishReason::none;
  std::string_view text;  // new text/content in this chunk; valid until the parser's next call
  std::optional<Usage> usage;
  std::optional<SglangMeta> meta;
  std::optional<LlamaTimings> timings;
  std::optional<WireError> error;
  std::optional<std::int64_t> emit_ns;  // sb_emit_ns: the simulator's steady-clock send stamp
};

class ChunkParser {
 public:
  ChunkParser();
  ~ChunkParser();
  ChunkParser(const ChunkParser&) = delete;
  ChunkParser& operator=(const ChunkParser&) = delete;

  // Forgets the running counts: call before reusing the parser for another stream.
  void reset();
  // One SSE event's data into `out` (overwritten). Fails when the data is not JSON; the message
  // quotes its first bytes.
  util::Result<void> parse_event(std::string_view data, Chunk& out);
  // A whole non-stream JSON body (completions, chat or /generate) into `out`: tokens is the
  // completion token count, text the whole generated text.
  util::Result<void> parse_response(std::string_view body, Chunk& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace servebench::wire
