#include "servebench/sim/engine.hpp"

#include <limits>
#include <map>

#include <gtest/gtest.h>

#include "closed_loop.hpp"

using namespace servebench::sim;

namespace {

struct Outcome {
  std::map<RequestId, std::vector<std::int32_t>> tokens;
  std::map<RequestId, RequestMeta> meta;
  std::vector<std::int64_t> step_ns;
};

Outcome drain(Engine& e) {
  Outcome o;
  for (int guard = 0; !e.idle() && guard < 1'000'000; ++guard) {
    const auto s = e.step();
    o.step_ns.push_back(s.duration.count());
    for (const auto& ev : s.events) {
      auto& t = o.tokens[ev.id];
      t.insert(t.end(), ev.tokens.begin(), ev.tokens.end());
      if (ev.finish != FinishReason::none) o.meta[ev.id] = *ev.meta;
    }
  }
  return o;
}

SimRequest request(std::vector<std::int32_t> prompt, std::int64_t max_tokens, bool ignore_eos = true) {
  SimRequest r;
  r.prompt = std::move(prompt);
  r.sampling.max_tokens = max_tokens;
  r.sampling.ignore_eos = ignore_eos;
  return r;
}

Deployment deploy(SimConfig c = {}) { return make_deployment(c).value(); }

SimConfig eagle(double alpha) {
  SimConfig c;
  c.speculative_algorithm = SpecAlgorithm::eagle3;
  c.speculative_num_steps = 3;
  c.sim_accept_rates = {alpha};
  return c;
}

}  // namespace

// per_request is the front's time (HTTP, tokenizer) before the scheduler sees a request: it adds to
// that request's TTFT once and stalls nobody else's decode steps.
TEST(Engine, PerRequestFrontTimeDelaysOnlyItsOwnRequest) {
  const auto run = [](std::chrono::microseconds front) {
    SimConfig c;
    c.efficiency.per_request = front;
    Engine e(make_deployment(c).value());
    const auto first = e.submit(request(std::vector<std::int32_t>(512, 7), 64)).value();
    // A second request arrives while the first decodes.
    for (int i = 0; i < 8 && !e.idle(); ++i) e.step();
    const auto second = e.submit(request(std::vector<std::int32_t>(512, 9), 64)).value();
    const auto o = drain(e);
    return std::pair{o.meta.at(first), o.meta.at(second)};
  };
  const auto [a0, b0] = run(std::chrono::microseconds(0));
  const auto [a1, b1] = run(std::chrono::microseconds(50'000));
  const auto ttft = [](const RequestMeta& m) { return m.first_token - m.arrival; };
  EXPECT_EQ(ttft(a1) - ttft(a0), std::chrono::microseconds(50'000));
  // The second request waits for the front, then joins at the next batch after it is ready.
  EXPECT_GE(ttft(b1) - ttft(b0), std::chrono::microseconds(50'000) - std::chrono::milliseconds(20));
  // The first request's decode does not stall while the second is in the front: its time from first
  // to last token grows only by what sharing steps with the second costs, far under the front's 50 ms.
  const auto decode = [](const RequestMeta& m) { return m.finished - m.first_token; };
  EXPECT_LT(decode(a1) - decode(a0), std::chrono::milliseconds(5));
}

TEST(Engine, IgnoreEosReturnsExactlyMaxTokens) {
  Engine e(deploy(eagle(0.8)));
  const auto id = e.submit(request(loop::random_prompt(300, 1, 128000), 77)).value();
  const auto o = drain(e);
  EXPECT_EQ(o.tokens.at(id).size(), 77u);
  EXPECT_EQ(o.meta.at(id).finish, FinishReason::length);
  EXPECT_EQ(o.meta.at(id).completion_tokens, 77);
}

TEST(Engine, WithoutIgnoreEosStopsAtEosAfterMinTokens) {
  SimConfig c;
  c.sim_eos_probability = 0.05;
  Engine e(deploy(c));
  auto r = request(loop::random_prompt(64, 2, 128000), 2000, false);
  r.sampling.min_tokens = 20;
  const auto id = e.submit(std::move(r)).value();
  const auto o = drain(e);
  const auto& t = o.tokens.at(id);
  EXPECT_EQ(o.meta.at(id).finish, FinishReason::stop);
  EXPECT_GT(t.size(), 20u);
  EXPECT_LT(t.size(), 2000u);
  EXPECT_EQ(t.back(), e.tokenizer().specials().eos);
}

TEST(Engine, ForcedOutputIsReturnedVerbatim) {
  Engine e(deploy());
  auto r = request(loop::random_prompt(64, 3, 128000), 100, false);
  r.sampling.forced_output = {1000, 2000, 3000};
  const auto id = e.submit(std::move(r)).value();
  const auto o = drain(e);
  EXPECT_EQ(o.tokens.at(id), (std::vector<std::int32_t>{1000, 2000, 3000}));
  EXPECT_EQ(o.meta.at(id).finish, FinishReason::stop);
}

TEST(Engine, RejectsRequestsBeyondTheContextLength) {
  SimConfig c;
  c.context_length = 1000;
  Engine e(deploy(c));
  const auto r = e.submit(request(loop::random_prompt(900, 4, 128000), 200));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("maximum context length of 1000 tokens"), std::string::npos);
  EXPECT_TRUE(e.idle());
}

TEST(Engine, RejectsMaxTokensThatOverflowThePromptPlusCompletionSum) {
  Engine e(deploy());
  const auto r = e.submit(request(loop::random_prompt(8, 4, 128000), std::numeric_limits<std::int64_t>::max()));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("9223372036854775815 tokens"), std::string::npos) << r.error().message;
  EXPECT_TRUE(e.idle());
}

TEST(Engine, RejectsTokenIdsOutsideTheVocabularyNamingTheFirst) {
  Engine e(deploy());
  const auto vocab = static_cast<std::int32_t>(e.tokenizer().vocab_size());
  // The check runs over many ids at once: a bad id anywhere in a long prompt is found.
  auto prompt = loop::random_prompt(1000, 4, 128000);
  for (const std::int32_t bad : {-1, vocab, vocab + 7, std::numeric_limits<std::int32_t>::min(),
                                 std::numeric_limits<std::int32_t>::max()}) {
    for (const std::size_t at : {std::size_t{0}, std::size_t{517}, prompt.size() - 1}) {
      auto p = prompt;
      p[at] = bad;
      if (at != prompt.size() - 1) p.back() = -2;  // a later bad id is not the one named
      const auto r = e.submit(request(p, 4));
      ASSERT_FALSE(r) << bad << " at " << at;
      EXPECT_EQ(r.error().message, "token id " + std::to_string(bad) + " is outside the vocabulary");
    }
  }
  EXPECT_TRUE(e.idle());
  prompt.front() = 0;
  prompt.back() = vocab - 1;  // both ends of the vocabulary are in it
  EXPECT_TRUE(e.submit(request(prompt, 4)));
}

TEST(Engine, EveryEventOfARequestCarriesTheTagItWasSubmittedWith) {
  Engine e(deploy());
  std::map<RequestId, std::uint64_t> tag_of;
  for (std::uint64_t tag : {7ULL, 0ULL, ~0ULL, 42ULL}) {
    const auto prompt = loop::random_prompt(64 + static_cast<std::int64_t>(tag % 50), 4, 128000);
    SamplingParams sampling;
    sampling.max_tokens = 9;
    sampling.ignore_eos = true;
    tag_of[e.submit(prompt, sampling, tag).value()] = tag;
  }
  std::map<RequestId, int> events;
  for (int guard = 0; !e.idle() && guard < 10'000; ++guard) {
    for (const auto& ev : e.step().events) {
      EXPECT_EQ(ev.tag, tag_of.at(ev.id));
      ASSERT_NE(ev.meta, nullptr);
      EXPECT_EQ(ev.meta->id, ev.id);
      events[ev.id] += 1;
    }
  }
  EXPECT_EQ(events.size(), 4u);
  for (const auto& [id, n] : events) EXPECT_EQ(n, 9) << id;
}

TEST(Engine, SameSeedAndRequestsGiveIdenticalTimings) {
  const auto run = [] {
    Engine e(deploy(eagle(0.7)));
    for (int i = 0; i < 12; ++i) (void)e.submit(request(loop::random_prompt(200 + 50 * i, 9 + i, 128000), 40 + i));
    return drain(e);
  };
  const auto a = run(), b = run();
  EXPECT_EQ(a.step_ns, b.step_ns);
  EXPECT_EQ(a.tokens, b.tokens);
}

TEST(Engine, GreedyOutputIsTheSameAloneUnderLoadAndWithSpeculation) {
  const auto prompt = loop::random_prompt(500, 77, 128000);
  Engine alone(deploy());
  const auto a_id = alone.submit(request(prompt, 64)).value();
  const auto a = drain(alone);
  Engine busy(deploy(eagle(0.6)));
  for (int i = 0; i < 20; ++i) (void)busy.submit(request(loop::random_prompt(300, 100 + i, 128000), 50));
  const auto b_id = busy.submit(request(prompt, 64)).value();
  const auto b = drain(busy);
  EXPECT_EQ(a.tokens.at(a_id), b.tokens.at(b_id));
}

TEST(Engine, SpeculationAcceptLengthFollowsTheAcceptRate) {
  Engine e(deploy(eagle(0.8)));
  const auto id = e.submit(request(loop::random_prompt(100, 5, 128000), 4000)).value();
  const auto o = drain(e);
  const auto& m = o.meta.at(id);
  const double expected = (1 - std::pow(0.8, 4)) / (1 - 0.8);
  EXPECT_NEAR(static_cast<double>(m.completion_tokens - 1) / static_cast<double>(m.spec_verify_ct), expected,
              0.05 * expected);
  const auto c = e.counters();
  EXPECT_EQ(c.spec_verify_steps_total, m.spec_verify_ct);
  EXPECT_EQ(c.generation_tokens_total, 4000);
}

TEST(Engine, RadixCacheHitSkipsThePrefixAndCanBeDisabled) {
  const auto prompt = loop::random_prompt(1000, 6, 128000);
  for (const bool disabled : {false, true}) {
    SimConfig c;
    c.disable_radix_cache = disabled;
    Engine e(deploy(c));
    (void)e.submit(request(prompt, 8));
    drain(e);
    const auto id = e.submit(request(prompt, 8)).value();
    const auto o = drain(e);
    EXPECT_EQ(o.meta.at(id).cached_device, disabled ? 0 : 999) << disabled;
    EXPECT_EQ(e.counters().cached_tokens_total, disabled ? 0 : 999);
    EXPECT_EQ(e.counters().prompt_tokens_total, 2000);
  }
}

TEST(Engine, FlushFailsWhileBusyThenClearsTheCache) {
  const auto prompt = loop::random_prompt(600, 7, 128000);
  Engine e(deploy());
  (void)e.submit(request(prompt, 4));
  EXPECT_FALSE(e.flush_cache());
  drain(e);
  EXPECT_TRUE(e.flush_cache());
  const auto id = e.submit(request(prompt, 4)).value();
  EXPECT_EQ(drain(e).meta.at(id).cached_tokens(), 0);
}

TEST(Engine, HostTierServesEvictedPrefixesAndSurvivesFlushOnlyWhenConfigured) {
  const auto prompt = loop::random_prompt(4000, 8, 128000);
  for (const bool keep : {false, true}) {
    SimConfig c;
    c.enable_hierarchical_cache = true;
    c.max_total_tokens = 6000;
    c.flush_keeps_host_tier = keep;
    Engine e(deploy(c));
    (void)e.submit(request(prompt, 4));
    drain(e);
    (void)e.submit(request(loop::random_prompt(4000, 9, 128000), 4));  // evicts the first from the GPU
    drain(e);
    const auto hit = e.submit(request(prompt, 4)).value();
    const auto m = drain(e).meta.at(hit);
    EXPECT_EQ(m.cached_device, 0);
    EXPECT_EQ(m.cached_host, 3999);
    ASSERT_TRUE(e.flush_cache());
    const auto again = e.submit(request(prompt, 4)).value();
    EXPECT_EQ(drain(e).meta.at(again).cached_host, keep ? 3999 : 0) << keep;
  }
}

TEST(Engine, CancelFreesTheSlotAndKvAtOnce) {
  SimConfig c;
  c.disable_radix_cache = true;
  Engine e(deploy(c));
  const auto id = e.submit(request(loop::random_prompt(2000, 10, 128000), 500)).value();
  for (int i = 0; i < 3; ++i) (void)e.step();
  EXPECT_GT(e.counters().used_tokens, 2000);
  EXPECT_TRUE(e.cancel(id));
  EXPECT_EQ(e.counters().used_tokens, 0);
  EXPECT_EQ(e.counters().running, 0);
  EXPECT_FALSE(e.cancel(id));
  drain(e);
  EXPECT_TRUE(e.idle());
}

TEST(Engine, StopEarlyFinishesAndCountsTheRequest) {
  SimConfig c;
  c.disable_radix_cache = true;
  Engine e(deploy(c));
  const auto id = e.submit(request(loop::random_prompt(300, 12, 128000), 500)).value();
  for (int i = 0; i < 3; ++i) (void)e.step();
  ASSERT_EQ(e.counters().running, 1);
  EXPECT_TRUE(e.stop_early(id));
  const auto counters = e.counters();
  EXPECT_EQ(counters.running, 0);
  EXPECT_EQ(counters.used_tokens, 0);
  EXPECT_EQ(counters.requests_finished_total, 1);
  EXPECT_EQ(counters.prompt_tokens_total, 300);
  EXPECT_FALSE(e.stop_early(id));
  drain(e);
  EXPECT_TRUE(e.idle());
}

TEST(Engine, AdvanceToMovesAnIdleClockForward) {
  Engine e(deploy());
  e.advance_to(VirtualTime{} + std::chrono::seconds(5));
  EXPECT_EQ(e.now(), VirtualTime{} + std::chrono::seconds(5));
  const auto id = e.submit(request(loop::random_prompt(10, 11, 128000), 2)).value();
  const auto o = drain(e);
  EXPECT_EQ(o.meta.at(id).arrival, VirtualTime{} + std::chrono::seconds(5));
  EXPECT_GT(o.meta.at(id).first_token, o.meta.at(id).arrival);
}
