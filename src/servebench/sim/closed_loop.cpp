#include "servebench/sim/closed_loop.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>

namespace servebench::sim::loop {

std::vector<std::int32_t> random_prompt(std::int64_t length, std::uint64_t salt, std::int32_t id_limit) {
  std::vector<std::int32_t> ids(static_cast<std::size_t>(length));
  for (std::int64_t i = 0; i < length; ++i) {
    ids[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(256 + mix64(salt, static_cast<std::uint64_t>(i)) % static_cast<std::uint64_t>(id_limit - 256));
  }
  return ids;
}

LoopResult run_closed_loop(Engine& engine, std::int64_t isl, std::int64_t osl, int concurrency, int num_prompts,
                           std::uint64_t salt) {
  struct Track { VirtualTime sent, first, last; std::int64_t tokens = 0; };
  std::unordered_map<RequestId, Track> live;
  LoopResult out;
  const auto limit = engine.tokenizer().specials().special_start;
  int sent = 0;
  const auto send = [&] {
    SimRequest r;
    r.prompt = random_prompt(isl, mix64(salt, static_cast<std::uint64_t>(sent)), limit);
    r.sampling.max_tokens = osl;
    r.sampling.ignore_eos = true;
    auto id = engine.submit(std::move(r));
    if (id) live[*id] = Track{engine.now(), {}, {}, 0};
    ++sent;
  };
  const VirtualTime start = engine.now();
  while (sent < concurrency && sent < num_prompts) send();
  double ttft_sum = 0, tpot_sum = 0;
  std::int64_t tpot_n = 0, out_tokens = 0, verify = 0, completion = 0, full_n = 0;
  double full_sum = 0;
  for (std::int64_t guard = 0; !engine.idle() && guard < 50'000'000; ++guard) {
    const auto step = engine.step();
    const auto c = engine.counters();
    const auto& d = engine.deployment();
    if (c.running > d.max_running_requests || c.used_tokens > c.max_total_num_tokens || c.used_tokens < 0)
      out.invariants_held = false;
    out.max_running = std::max(out.max_running, c.running);
    for (const auto& l : step.logs) {
      if (l.kind != BatchKind::decode || l.running_req != concurrency) continue;
      full_sum += std::chrono::duration<double, std::milli>(l.duration).count();
      ++full_n;
      out.full_batch_cuda_graph = l.cuda_graph;
    }
    for (const auto& e : step.events) {
      auto& t = live[e.id];
      if (e.first_token) t.first = engine.now();
      t.last = engine.now();
      t.tokens += static_cast<std::int64_t>(e.tokens.size());
      if (e.finish == FinishReason::none) continue;
      ttft_sum += std::chrono::duration<double, std::milli>(t.first - t.sent).count();
      if (t.tokens > 1) {
        tpot_sum += std::chrono::duration<double, std::milli>(t.last - t.first).count() / static_cast<double>(t.tokens - 1);
        ++tpot_n;
      }
      out_tokens += t.tokens;
      verify += e.meta->spec_verify_ct;
      completion += e.meta->completion_tokens;
      out.completed += 1;
      live.erase(e.id);
      if (sent < num_prompts) send();
    }
  }
  const double seconds = std::chrono::duration<double>(engine.now() - start).count();
  out.output_tok_s = seconds > 0 ? static_cast<double>(out_tokens) / seconds : 0;
  out.mean_ttft_ms = out.completed ? ttft_sum / static_cast<double>(out.completed) : 0;
  out.mean_tpot_ms = tpot_n ? tpot_sum / static_cast<double>(tpot_n) : 0;
  out.accept_length = verify ? static_cast<double>(completion) / static_cast<double>(verify) : 0;
  out.retractions = engine.counters().retractions_total;
  out.full_batch_decode_ms = full_n ? full_sum / static_cast<double>(full_n) : 0;
  return out;
}

}  // namespace servebench::sim::loop
