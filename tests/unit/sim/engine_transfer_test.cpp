// The engine in a disaggregated deployment (docs/sim.md "Disaggregation"): a prefill server stops at
// the first token; a decode server computes no prompt, holds pool space for it, waits for its KV
// over the modelled link and gives the first token one decode step after the KV arrived.
#include <gtest/gtest.h>

#include "closed_loop.hpp"
#include "servebench/sim/engine.hpp"

using namespace servebench::sim;
using namespace std::chrono_literals;

namespace {

Deployment pd_part_deployment(DisaggregationMode mode, SimConfig c = {}) {
  c.disaggregation.mode = mode;
  return make_deployment(c).value();
}

SimRequest pd_request(std::int64_t prompt, std::int64_t max_tokens, std::uint64_t seed = 1) {
  SimRequest r;
  r.prompt = loop::random_prompt(prompt, seed, 128000);
  r.sampling.max_tokens = max_tokens;
  r.sampling.ignore_eos = true;
  return r;
}

struct PdDrained {
  std::map<RequestId, RequestMeta> done;
  std::map<RequestId, std::int64_t> tokens;
  std::vector<StepLog> logs;
};

PdDrained pd_drain(Engine& e) {
  PdDrained d;
  for (int guard = 0; !e.idle() && guard < 100000; ++guard) {
    const auto s = e.step();
    d.logs.insert(d.logs.end(), s.logs.begin(), s.logs.end());
    for (const auto& ev : s.events) {
      d.tokens[ev.id] += static_cast<std::int64_t>(ev.tokens.size());
      if (ev.finish != FinishReason::none) d.done[ev.id] = *ev.meta;
    }
  }
  return d;
}

}  // namespace

TEST(EngineDisaggregation, PrefillServerAnswersOneTokenWhateverMaxTokensSays) {
  Engine e(pd_part_deployment(DisaggregationMode::prefill));
  const auto id = e.submit(pd_request(2048, 500)).value();
  const auto d = pd_drain(e);
  EXPECT_EQ(d.tokens.at(id), 1);
  EXPECT_EQ(d.done.at(id).finish, FinishReason::length);
  EXPECT_EQ(e.counters().prompt_tokens_total, 2048);
  ASSERT_FALSE(d.logs.empty());
  for (const auto& log : d.logs) EXPECT_EQ(log.kind, BatchKind::prefill) << "a prefill server never decodes";
}

TEST(EngineDisaggregation, DecodeServerComputesNoPromptAndItsFirstTokenFollowsTheTransfer) {
  Engine e(pd_part_deployment(DisaggregationMode::decode));
  const auto transfer = kv_transfer_model(e.deployment()).time(4096);
  const auto id = e.submit(pd_request(4096, 16)).value();
  const auto d = pd_drain(e);
  const RequestMeta& m = d.done.at(id);
  EXPECT_EQ(d.tokens.at(id), 16);
  for (const auto& log : d.logs) EXPECT_EQ(log.kind, BatchKind::decode) << "the prompt's KV arrives, it is not computed";
  ASSERT_FALSE(d.logs.empty());
  // TTFT = the transfer (from admission, at arrival here) + the first decode step.
  EXPECT_EQ(d.logs.front().at, transfer);
  EXPECT_EQ(m.first_token - m.arrival, transfer + d.logs.front().duration);
  const EngineCounters c = e.counters();
  EXPECT_EQ(c.kv_transfers_total, 1);
  EXPECT_EQ(c.kv_transfer_tokens_total, 4096);
  EXPECT_EQ(c.kv_transfer_ns_total, transfer.count());
  EXPECT_EQ(c.cached_tokens_total, 0);
}

TEST(EngineDisaggregation, FakeTransferDecodesAtOnce) {
  SimConfig c;
  c.disaggregation.transfer_backend = "fake";
  Engine e(pd_part_deployment(DisaggregationMode::decode, c));
  const auto id = e.submit(pd_request(4096, 4)).value();
  const auto d = pd_drain(e);
  EXPECT_EQ(d.logs.front().at, 0ns);
  EXPECT_EQ(d.done.at(id).first_token - d.done.at(id).arrival, d.logs.front().duration);
}

TEST(EngineDisaggregation, DecodeServerNeedsPoolSpaceForTheWholePromptBeforeItsTransferStarts) {
  SimConfig c;
  c.max_total_tokens = 6000;  // one 4,000-token prompt (+ its outputs) at a time
  Engine e(pd_part_deployment(DisaggregationMode::decode, c));
  const auto first = e.submit(pd_request(4000, 100, 1)).value();
  const auto second = e.submit(pd_request(4000, 100, 2)).value();
  const auto d = pd_drain(e);
  const RequestMeta& a = d.done.at(first);
  const RequestMeta& b = d.done.at(second);
  EXPECT_GE(b.first_token, a.finished) << "the second prompt's KV had no room until the first finished";
  EXPECT_EQ(d.tokens.at(second), 100);
  EXPECT_EQ(e.counters().retractions_total, 0);
}

TEST(EngineDisaggregation, PromptsArrivingTogetherShareTheLink) {
  Engine e(pd_part_deployment(DisaggregationMode::decode));
  const auto t = kv_transfer_model(e.deployment());
  const auto a = e.submit(pd_request(2048, 8, 1)).value();
  const auto b = e.submit(pd_request(2048, 8, 2)).value();
  const auto d = pd_drain(e);
  const auto ttft_a = d.done.at(a).first_token - d.done.at(a).arrival;
  const auto ttft_b = d.done.at(b).first_token - d.done.at(b).arrival;
  EXPECT_GE(ttft_b - ttft_a, t.wire_time(2048) - 1ms) << "the second prompt's bytes follow the first's";
  // Summed from the allocation: the first waits for its own bytes, the second for both.
  EXPECT_EQ(e.counters().kv_transfer_ns_total, (t.time(2048) + 2 * t.wire_time(2048) + t.latency).count());
}

TEST(EngineDisaggregation, DecodeServerKeepsNoPrefixCacheUnlessAsked) {
  Engine e(pd_part_deployment(DisaggregationMode::decode));
  const auto r = pd_request(1000, 4, 7);
  (void)e.submit(r);
  pd_drain(e);
  (void)e.submit(r);
  pd_drain(e);
  EXPECT_EQ(e.counters().cached_tokens_total, 0);
  EXPECT_EQ(e.counters().kv_transfers_total, 2) << "the same prompt is transferred again";
}
