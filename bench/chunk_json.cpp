// Chunk JSON on the hot path: parsing one SSE event's data (SAX handler vs DOM with a reused
// monotonic resource) and encoding response chunks (the simulator's side).
//   cmake --preset release && cmake --build --preset release --target bench_chunk_json
//   build/release/bench/bench_chunk_json
#include <benchmark/benchmark.h>

#include <boost/json.hpp>

#include "servebench/wire/chunk_parser.hpp"
#include "servebench/wire/response_encoder.hpp"

namespace {

using namespace servebench::wire;

const std::string k_chat_chunk =
    R"({"id":"chatcmpl-8f2a","object":"chat.completion.chunk","created":1795963959,"model":"org/model-70b",)"
    R"("choices":[{"index":0,"delta":{"content":" Weblinks"},"logprobs":null,"finish_reason":null}],)"
    R"("usage":{"prompt_tokens":1024,"completion_tokens":17,"total_tokens":1041}})";

std::string native_chunk(int ids) {
  std::string out = R"({"text":")";
  for (int i = 0; i < ids; ++i) out += "tok ";
  out += R"(","output_ids":[)";
  for (int i = 0; i < ids; ++i) out += (i ? "," : "") + std::to_string(1000 + i * 7);
  out += R"(],"meta_info":{"id":"3f2a","finish_reason":null,"prompt_tokens":1024,"completion_tokens":)" +
         std::to_string(ids) +
         R"(,"cached_tokens":0,"cached_tokens_details":null,"e2e_latency":0.27,"spec_verify_ct":90}})";
  return out;
}

// The DOM alternative: parse into a tree in a reused buffer, then look the same fields up.
struct DomParser {
  unsigned char buffer[16384];
  boost::json::parser parser;
  void parse(std::string_view data, Chunk& out) {
    boost::json::monotonic_resource mr(buffer, sizeof buffer);
    parser.reset(&mr);
    parser.write(data.data(), data.size());
    const boost::json::value v = parser.release();
    out = Chunk{};
    const auto& o = v.as_object();
    if (const auto* choices = o.if_contains("choices"); choices && !choices->as_array().empty()) {
      const auto& c = choices->as_array()[0].as_object();
      if (const auto* d = c.if_contains("delta")) {
        if (const auto* s = d->as_object().if_contains("content"); s && s->is_string()) {
          out.token_bearing = !s->get_string().empty();
        }
      }
      if (const auto* f = c.if_contains("finish_reason"); f && f->is_string()) {
        out.finish = parse_finish_reason(f->get_string());
      }
    }
    if (const auto* u = o.if_contains("usage"); u && u->is_object()) {
      out.usage.emplace();
      if (const auto* n = u->as_object().if_contains("completion_tokens")) out.usage->completion_tokens = n->as_int64();
      if (const auto* n = u->as_object().if_contains("prompt_tokens")) out.usage->prompt_tokens = n->as_int64();
    }
    if (const auto* m = o.if_contains("meta_info"); m && m->is_object()) {
      out.meta.emplace();
      const auto& mo = m->as_object();
      if (const auto* n = mo.if_contains("completion_tokens")) out.meta->completion_tokens = n->as_int64();
      if (const auto* n = mo.if_contains("prompt_tokens")) out.meta->prompt_tokens = n->as_int64();
      if (const auto* n = mo.if_contains("spec_verify_ct")) out.meta->spec_verify_ct = n->as_int64();
      if (const auto* n = mo.if_contains("cached_tokens")) out.meta->cached_tokens = n->as_int64();
    }
    if (const auto* s = o.if_contains("sb_emit_ns")) out.emit_ns = s->as_int64();
  }
};

void run_sax(benchmark::State& state, const std::string& data) {
  ChunkParser parser;
  Chunk chunk;
  for (auto _ : state) {
    parser.reset();
    if (!parser.parse_event(data, chunk)) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(chunk);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
  state.SetItemsProcessed(state.iterations());
}

void run_dom(benchmark::State& state, const std::string& data) {
  auto dom = std::make_unique<DomParser>();
  Chunk chunk;
  for (auto _ : state) {
    dom->parse(data, chunk);
    benchmark::DoNotOptimize(chunk);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
  state.SetItemsProcessed(state.iterations());
}

void BM_ParseChatChunkSax(benchmark::State& s) { run_sax(s, k_chat_chunk); }
void BM_ParseChatChunkDom(benchmark::State& s) { run_dom(s, k_chat_chunk); }
void BM_ParseNativeChunkSax(benchmark::State& s) { run_sax(s, native_chunk(static_cast<int>(s.range(0)))); }
void BM_ParseNativeChunkDom(benchmark::State& s) { run_dom(s, native_chunk(static_cast<int>(s.range(0)))); }
BENCHMARK(BM_ParseChatChunkSax);
BENCHMARK(BM_ParseChatChunkDom);
BENCHMARK(BM_ParseNativeChunkSax)->Arg(1)->Arg(256);
BENCHMARK(BM_ParseNativeChunkDom)->Arg(1)->Arg(256);

const ResponseHeader k_header{"chatcmpl-8f2a", "org/model-70b", 1795963959};

void BM_EncodeCompletionChunk(benchmark::State& state) {
  std::string out;
  const Usage usage{1024, 17, 0};
  ChunkBody body;
  body.text = " Weblinks";
  body.usage = state.range(0) ? &usage : nullptr;
  body.emit_ns = 1234567890123;
  for (auto _ : state) {
    out.clear();
    encode_completion_chunk(out, k_header, body);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeCompletionChunk)->Arg(0)->Arg(1);

void BM_EncodeChatChunk(benchmark::State& state) {
  std::string out;
  ChunkBody body;
  body.text = " Weblinks";
  for (auto _ : state) {
    out.clear();
    encode_chat_chunk(out, k_header, body);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeChatChunk);

void BM_EncodeGenerateChunk(benchmark::State& state) {
  std::vector<std::int32_t> ids(static_cast<std::size_t>(state.range(0)), 31000);
  std::string text(ids.size() * 4, 'a');
  GenerateOutput g;
  g.id = "3f2a";
  g.text = text;
  g.output_ids = ids;
  g.meta.prompt_tokens = 1024;
  g.meta.completion_tokens = static_cast<std::int64_t>(ids.size());
  g.meta.cached_tokens = 0;
  std::string out;
  for (auto _ : state) {
    out.clear();
    encode_generate(out, g);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeGenerateChunk)->Arg(1)->Arg(256);

}  // namespace

BENCHMARK_MAIN();
