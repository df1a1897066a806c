// The simulator front's per-chunk cost without sockets: a Generation turning one engine event into a
// framed SSE chunk (wire encoder + http SSE framing) queued on a stream that drops it, and the whole
// engine thread in fast timing (time scale 0) feeding many streams: chunks/s the front sustains.
#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "servebench/sim/engine_loop.hpp"

using namespace servebench;
using namespace servebench::sim;

namespace {

// Counts what it is given, like a socket that is always writable.
class NullStream final : public http::Stream {
 public:
  explicit NullStream(std::function<void()> finished = {}) : m_finished(std::move(finished)) {}
  void send(std::string_view chunk) override { bytes += chunk.size(); }
  void finish() override {
    if (m_finished) m_finished();
  }
  void respond(http::Response) override { finish(); }
  void on_close(std::function<void()>) override {}
  bool closed() const noexcept override { return false; }
  std::size_t bytes = 0;

 private:
  std::function<void()> m_finished;
};

const Tokenizer& tokenizer() {
  static const Tokenizer t = Tokenizer::for_model(load_model_card("llama-3.1-8b").value());
  return t;
}

RequestPlan streaming_plan(wire::ServerRoute route, std::int64_t max_tokens) {
  RequestPlan plan;
  plan.route = route;
  plan.stream = true;
  plan.include_usage = true;
  SimRequest r;
  r.prompt = {1, 2, 3};
  r.sampling.max_tokens = max_tokens;
  plan.items.push_back(std::move(r));
  return plan;
}

void chunk_cost(benchmark::State& state, wire::ServerRoute route, StampEvents stamp) {
  GenerationContext context;
  context.tokenizer = &tokenizer();
  context.model = "llama-3.1-8b";
  context.stamp = stamp;
  context.generate_output = StreamOutput::incremental;
  auto stream = std::make_shared<NullStream>();
  Generation g(streaming_plan(route, 1 << 30), stream, context, "cmpl-0000000000000001", 1700000000);
  ChunkBuffers buffers;
  g.take_requests();
  const RequestId id = 1;
  g.accepted(std::span(&id, 1), buffers);
  const std::int32_t token = tokenizer().word_id(12345);
  TokenEvent event;
  event.id = 1;
  event.tokens = std::span(&token, 1);
  RequestMeta meta;
  meta.prompt_tokens = 3;
  event.meta = &meta;
  for (auto _ : state) {
    ++meta.completion_tokens;
    benchmark::DoNotOptimize(g.on_event(0, event, VirtualTime{}, buffers));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(stream->bytes));
}

void BM_CompletionChunk(benchmark::State& s) { chunk_cost(s, wire::ServerRoute::completions, StampEvents::off); }
void BM_CompletionChunkStamped(benchmark::State& s) { chunk_cost(s, wire::ServerRoute::completions, StampEvents::on); }
void BM_ChatChunk(benchmark::State& s) { chunk_cost(s, wire::ServerRoute::chat_completions, StampEvents::off); }
void BM_GenerateChunkIncremental(benchmark::State& s) { chunk_cost(s, wire::ServerRoute::generate, StampEvents::off); }

// The engine thread end to end in fast timing: `streams` concurrent requests of `tokens` tokens each,
// stepped, encoded and queued on null streams. Items = chunks.
void BM_EngineLoopFastTiming(benchmark::State& state) {
  const auto streams = state.range(0), tokens = state.range(1);
  GenerationContext context;
  context.tokenizer = &tokenizer();
  context.model = "llama-3.1-8b";
  for (auto _ : state) {
    EngineLoop loop(make_deployment({}).value(), LoopOptions{.time_scale = 0});
    loop.start();
    std::mutex mutex;
    std::condition_variable cv;
    std::int64_t finished = 0;
    for (std::int64_t i = 0; i < streams; ++i) {
      auto plan = streaming_plan(wire::ServerRoute::completions, tokens);
      plan.items[0].prompt = {static_cast<std::int32_t>(1000 + i), 5, 6, 7};
      plan.items[0].sampling.ignore_eos = true;
      auto stream = std::make_shared<NullStream>([&] {
        std::lock_guard lock(mutex);
        ++finished;
        cv.notify_one();
      });
      loop.submit(std::make_shared<Generation>(std::move(plan), stream, context, "cmpl", 0));
    }
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return finished == streams; });
  }
  state.SetItemsProcessed(state.iterations() * streams * tokens);
}

}  // namespace

BENCHMARK(BM_CompletionChunk);
BENCHMARK(BM_CompletionChunkStamped);
BENCHMARK(BM_ChatChunk);
BENCHMARK(BM_GenerateChunkIncremental);
BENCHMARK(BM_EngineLoopFastTiming)->Args({1, 4096})->Args({64, 512})->Args({2000, 64})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
