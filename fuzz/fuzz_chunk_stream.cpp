// A response stream as the load generator reads it: SSE bytes decoded into events, each event's
// data through one ChunkParser (the running counts carry across events), or — selector bit — the
// bytes as one non-stream body. Seeds: each engine's stream shape (OpenAI completions and chat,
// SGLang /generate with meta_info, llama.cpp with timings, error bodies).
#include "fuzz_input.hpp"
#include "servebench/http/sse_decoder.hpp"
#include "servebench/wire/chunk_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  servebench::fuzz::Input in(data, size);
  const std::uint8_t mode = in.take_byte();
  static servebench::wire::ChunkParser parser;  // reused across inputs, as across a run's streams
  parser.reset();
  servebench::wire::Chunk chunk;
  if (mode & 1) {
    (void)parser.parse_response(in.rest(), chunk);
    return 0;
  }
  servebench::http::SseDecoder decoder;
  decoder.feed(in.rest(), [&](const servebench::http::SseEvent& e) {
    if (parser.parse_event(e.data, chunk)) {
      servebench::fuzz::expect(chunk.tokens >= 0 || chunk.source == servebench::wire::TokenCountSource::native ||
                                   chunk.source == servebench::wire::TokenCountSource::usage_delta,
                               "negative token count from a counting source that cannot go down");
    }
  });
  return 0;
}
