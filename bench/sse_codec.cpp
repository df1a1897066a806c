// SSE framing on the hot path: encoding OpenAI completion chunks (the simulator's side) and
// decoding them (the load generator's side, once per socket read).
//   cmake --preset release && cmake --build --preset release --target bench_sse_codec
//   build/release/bench/bench_sse_codec
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "servebench/http/sse_decoder.hpp"
#include "servebench/http/sse_encoder.hpp"

namespace {

using namespace servebench::http;

// A realistic streamed completion chunk (~200 bytes), as SGLang/vLLM send one per token.
const std::string k_chunk =
    R"({"id":"cmpl-5b1e0c2f9a7d4e3c","object":"text_completion","created":1795963959,)"
    R"("model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"text":" token",)"
    R"("logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null})";

constexpr int k_events = 1000;

std::string framed_stream() {
  std::string out;
  for (int i = 0; i < k_events; ++i) append_sse_data(out, k_chunk);
  append_sse_done(out);
  return out;
}

void report(benchmark::State& state, std::size_t bytes_per_iteration, int events_per_iteration) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_per_iteration));
  state.SetItemsProcessed(state.iterations() * events_per_iteration);
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * events_per_iteration), benchmark::Counter::kIsRate);
}

void BM_SseEncode(benchmark::State& state) {
  std::string out;
  for (auto _ : state) {
    out.clear();  // the producer reuses one buffer
    for (int i = 0; i < k_events; ++i) append_sse_data(out, k_chunk);
    benchmark::DoNotOptimize(out.data());
  }
  report(state, out.size(), k_events);
}
BENCHMARK(BM_SseEncode);

// Many events per read: a client that fell behind, or a server that coalesced writes.
void BM_SseDecodeWholeBuffer(benchmark::State& state) {
  const std::string input = framed_stream();
  SseDecoder decoder;
  std::size_t sum = 0;
  for (auto _ : state) {
    decoder.feed(input, [&](const SseEvent& e) { sum += e.data.size(); });
    benchmark::DoNotOptimize(sum);
  }
  report(state, input.size(), k_events + 1);
}
BENCHMARK(BM_SseDecodeWholeBuffer);

// One event per read: the common case while streaming at token pace.
void BM_SseDecodeEventPerRead(benchmark::State& state) {
  std::string event;
  append_sse_data(event, k_chunk);
  SseDecoder decoder;
  std::size_t sum = 0;
  for (auto _ : state) {
    for (int i = 0; i < k_events; ++i) decoder.feed(event, [&](const SseEvent& e) { sum += e.data.size(); });
    benchmark::DoNotOptimize(sum);
  }
  report(state, event.size() * k_events, k_events);
}
BENCHMARK(BM_SseDecodeEventPerRead);

// Reads of `range(0)` bytes that tear events and lines anywhere: the worst case for buffering.
void BM_SseDecodeTornReads(benchmark::State& state) {
  const std::string input = framed_stream();
  const auto piece = static_cast<std::size_t>(state.range(0));
  SseDecoder decoder;
  std::size_t sum = 0;
  for (auto _ : state) {
    for (std::size_t at = 0; at < input.size(); at += piece) {
      decoder.feed(std::string_view(input).substr(at, piece), [&](const SseEvent& e) { sum += e.data.size(); });
    }
    benchmark::DoNotOptimize(sum);
  }
  report(state, input.size(), k_events + 1);
}
BENCHMARK(BM_SseDecodeTornReads)->Arg(37)->Arg(1460);

}  // namespace

BENCHMARK_MAIN();
