// `servebench plan`'s engine driver at scale: one arm (Llama 3.1 8B on one H200), closed loop at
// C=256, ISL 1024, OSL 256, one million requests on one thread, prompts made as they are sent and
// each finished request streamed to a sink that keeps sums only — so memory stays bounded by the
// requests in flight (peak RSS is reported). Counters: simulated requests per CPU-second, engine
// steps, simulated seconds, peak RSS.
//
//   build/release/bench/bench_plan_requests                 # 1,000,000 requests
//   build/release/bench/bench_plan_requests --benchmark_filter=/100000/  # a quick 100,000 (or /10000/)
#include <sys/resource.h>

#include <cstdio>

#include <benchmark/benchmark.h>

#include "servebench/plan/virtual_load.hpp"
#include "servebench/sim/deployment.hpp"

namespace {

using namespace servebench;

// A digest of every simulated number (request times, token counts, cache hits, every chunk's time and
// size): an optimisation of the engine or the driver must leave it unchanged.
std::uint64_t mix(std::uint64_t h, std::int64_t v) {
  h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

class SumSink final : public plan::RequestSink {
 public:
  void on_request(const load::RequestRecord& r, std::span<const load::ChunkMark> chunks) override {
    digest = mix(digest, r.index);
    for (auto t : {r.sent, r.first_token.value_or(util::Nanos{-1}), r.last_token.value_or(util::Nanos{-1}), r.done})
      digest = mix(digest, t.count());
    digest = mix(digest, r.output_tokens_served.value_or(-1));
    digest = mix(digest, r.cached_tokens.value_or(-1));
    std::int64_t at = 0, weighted = 0, sizes = 0;  // sums, not a chain: the digest must cost little
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      at += chunks[k].at_ns;
      weighted += chunks[k].at_ns * static_cast<std::int64_t>(k + 1);
      sizes += chunks[k].tokens * static_cast<std::int64_t>(k + 1);
    }
    digest = mix(mix(mix(digest, at), weighted), sizes);
    requests += 1;
    if (!r.ok() || !r.first_token || !r.last_token) {
      failed += 1;
      return;
    }
    ttft_ms += static_cast<double>((*r.first_token - r.sent).count()) / 1e6;
    const auto out = r.output_tokens();
    if (out > 1) tpot_ms += static_cast<double>((*r.last_token - *r.first_token).count()) / 1e6 / static_cast<double>(out - 1);
    tokens += out;
    chunk_count += static_cast<std::int64_t>(chunks.size());
  }
  std::int64_t requests = 0, failed = 0, tokens = 0, chunk_count = 0;
  std::uint64_t digest = 0;
  double ttft_ms = 0, tpot_ms = 0;
};

// Prompt i: a two-token head no other prompt of the run has, then ids counting on from it
// (id j = k_first + (i + j) mod k_span, written without a division per id).
void make_prompt(std::size_t i, load::Prompt& p) {
  constexpr std::int32_t k_first = 1000, k_span = 29000;
  p.ids.resize(1024);
  p.ids[0] = k_first + static_cast<std::int32_t>(i / k_span % k_span);
  p.ids[1] = k_first + static_cast<std::int32_t>(i % k_span);
  auto v = static_cast<std::int32_t>((i + 2) % k_span);
  for (std::size_t j = 2; j < p.ids.size(); ++j) {
    p.ids[j] = k_first + v;
    if (++v == k_span) v = 0;
  }
  p.input_tokens = 1024;
  p.output_tokens = 256;
}

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

void BM_PlanClosedLoop(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  sim::SimConfig c;
  c.max_running_requests = 256;
  for (auto _ : state) {
    sim::Engine engine(sim::make_deployment(c).value());
    plan::VirtualLoad load;
    load.count = n;
    load.generate = make_prompt;
    load.max_concurrency = 256;
    SumSink sink;
    auto phase = plan::run_virtual(engine, load, &sink);
    if (!phase) {
      state.SkipWithError(phase.error().message.c_str());
      return;
    }
    state.counters["requests"] = static_cast<double>(sink.requests);
    state.counters["failed"] = static_cast<double>(sink.failed);
    state.counters["engine_steps"] = static_cast<double>(phase->steps);
    state.counters["simulated_s"] = static_cast<double>(phase->span.count()) / 1e9;
    state.counters["mean_ttft_ms"] = sink.ttft_ms / static_cast<double>(sink.requests - sink.failed);
    state.counters["mean_tpot_ms"] = sink.tpot_ms / static_cast<double>(sink.requests - sink.failed);
    state.counters["requests_per_cpu_s"] =
        benchmark::Counter(static_cast<double>(sink.requests), benchmark::Counter::kIsRate);
    std::fprintf(stderr, "%zu requests: result digest %016llx\n", n, static_cast<unsigned long long>(sink.digest));
  }
  state.counters["peak_rss_mb"] = static_cast<double>(peak_rss_kb()) / 1024.0;
}
BENCHMARK(BM_PlanClosedLoop)->Arg(1'000'000)->Arg(100'000)->Arg(10'000)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
