// llama.cpp adapter, against responses recorded from a real llama-server (tests/fixtures/llamacpp).
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "fake_exchange.hpp"
#include "servebench/engines/adapter.hpp"

namespace servebench::engines {
namespace {

using testing::FakeExchange;
using testing::ManualPacer;
using servebench::testing::read_fixture;
using namespace std::chrono_literals;

struct LlamacppFixture {
  LlamacppFixture() {
    ex.on_fixture(http::Method::get, "/props", "llamacpp/props.json");
    ex.on_fixture(http::Method::get, "/slots", "llamacpp/slots.json");
    ex.on_fixture(http::Method::get, "/v1/models", "llamacpp/models.json");
  }
  util::ManualClock clock;
  ManualPacer pacer{clock};
  std::unique_ptr<EngineAdapter> adapter = make_adapter(Engine::llamacpp, clock, pacer);
  FakeExchange ex;
};

// The recorded erase response is "<body>\nHTTP <status>".
std::string recorded_body(const std::string& fixture) {
  const std::string text = read_fixture(fixture);
  return text.substr(0, text.find('\n'));
}

TEST(LlamacppAdapter, FlushErasesEverySlot) {
  LlamacppFixture f;
  for (int id = 0; id < 8; ++id) {
    f.ex.on(http::Method::post, fmt::format("/slots/{}?action=erase", id), 200, recorded_body("llamacpp/slot_erase.txt"));
  }
  ASSERT_TRUE(f.adapter->flush(f.ex, f.clock.now() + 30s));
  EXPECT_EQ(std::count_if(f.ex.calls.begin(), f.ex.calls.end(),
                          [](const std::string& c) { return c.find("action=erase") != std::string::npos; }),
            8);
  EXPECT_EQ(f.ex.calls.back(), "POST /slots/7?action=erase");
}

TEST(LlamacppAdapter, FlushWithoutSlotSavePathSaysHowToStart) {
  LlamacppFixture f;
  f.ex.on_fixture(http::Method::post, "/slots/0?action=erase", "engines/llamacpp_slot_erase_unsupported.json", 501);
  auto r = f.adapter->flush(f.ex, f.clock.now() + 30s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--slot-save-path"), std::string::npos);
  EXPECT_NE(r.error().message.find("cache_prompt:false"), std::string::npos);
}

TEST(LlamacppAdapter, WaitIdleWatchesSlots) {
  LlamacppFixture f;
  FakeExchange busy;
  busy.on(http::Method::get, "/slots", 200, R"([{"id":0,"is_processing":true},{"id":1,"is_processing":false}])");
  busy.on_fixture(http::Method::get, "/slots", "llamacpp/slots.json");
  ASSERT_TRUE(f.adapter->wait_idle(busy, f.clock.now() + 10s));
  EXPECT_EQ(busy.calls.size(), 2u);
  FakeExchange stuck;
  stuck.on(http::Method::get, "/slots", 200, R"([{"id":0,"is_processing":true}])");
  EXPECT_FALSE(f.adapter->wait_idle(stuck, f.clock.now() + 1s));
}

TEST(LlamacppAdapter, WaitIdleFallsBackToMetricsWithoutSlots) {
  LlamacppFixture f;
  FakeExchange no_slots;
  no_slots.on_fixture(http::Method::get, "/metrics", "llamacpp/metrics.prom");
  ASSERT_TRUE(f.adapter->wait_idle(no_slots, f.clock.now() + 10s));
  EXPECT_EQ(no_slots.calls, (std::vector<std::string>{"GET /slots", "GET /metrics"}));
}

TEST(LlamacppAdapter, SnapshotAndHitRateCountCachedOnTopOfPrompt) {
  LlamacppFixture f;
  f.ex.on_fixture(http::Method::get, "/metrics", "llamacpp/metrics.prom");
  f.ex.on(http::Method::get, "/metrics", 200,
          "llamacpp:prompt_tokens_total 153\nllamacpp:prompt_tokens_cached_total 7\n"
          "llamacpp:spec_decode_num_drafts_total 10\nllamacpp:spec_decode_num_accepted_tokens_total 15\n");
  auto before = f.adapter->snapshot(f.ex);
  auto after = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->prompt_tokens, 53);
  EXPECT_EQ(before->cached_tokens, 5);
  EXPECT_EQ(before->generation_tokens, 26);
  EXPECT_EQ(before->spec_drafts, 0);
  EXPECT_EQ(before->running, 0);
  EXPECT_EQ(before->queued, 0);
  EXPECT_DOUBLE_EQ(*f.adapter->hit_rate(*before, *after), 2.0 / 102.0);  // Δcached / (Δcached + Δprompt)
  EXPECT_DOUBLE_EQ(*f.adapter->accept_length(*before, *after), 1.0 + 15.0 / 10.0);
  EXPECT_FALSE(f.adapter->accept_length(*before, *before));
}

TEST(LlamacppAdapter, FactsFromPropsSlotsAndModels) {
  LlamacppFixture f;
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->engine, "llamacpp");
  EXPECT_EQ(facts->version, "b10587-3f545becc");
  EXPECT_EQ(facts->model, "models/rand-45m.gguf");
  EXPECT_EQ(facts->max_running_requests, 8);
  EXPECT_EQ(facts->context_length, 2048);    // per slot: the longest request
  EXPECT_EQ(facts->kv_pool_tokens, 8 * 2048);  // the whole context the 8 slots share
  EXPECT_FALSE(facts->speculative);  // speculative.types "none"
  const auto raw = boost::json::parse(facts->raw_json).as_object();
  EXPECT_TRUE(raw.contains("/props"));
  EXPECT_EQ(raw.at("/slots").as_array().size(), 8u);
}

// -c 16384 -np 4: each slot gets 4,096 tokens, the KV pool is all 16,384 (not one slot's share).
TEST(LlamacppAdapter, KvPoolIsTheWholeContextAcrossSlots) {
  util::ManualClock clock;
  ManualPacer pacer{clock};
  auto adapter = make_adapter(Engine::llamacpp, clock, pacer);
  FakeExchange ex;
  auto props = boost::json::parse(read_fixture("llamacpp/props.json")).as_object();
  props["total_slots"] = 4;
  props["default_generation_settings"].as_object()["n_ctx"] = 4096;
  ex.on(http::Method::get, "/props", 200, boost::json::serialize(props));
  ex.on_fixture(http::Method::get, "/v1/models", "llamacpp/models.json");
  auto facts = adapter->facts(ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->max_running_requests, 4);
  EXPECT_EQ(facts->context_length, 4096);
  EXPECT_EQ(facts->kv_pool_tokens, 16384);
}

TEST(LlamacppAdapter, TokenizeDetokenizeAndVocab) {
  LlamacppFixture f;
  f.ex.on_fixture(http::Method::post, "/tokenize", "llamacpp/tokenize.json");
  f.ex.on_fixture(http::Method::post, "/detokenize", "llamacpp/detokenize.json");
  auto ids = f.adapter->tokenize(f.ex, "The quick brown fox", SpecialTokens::add);
  ASSERT_TRUE(ids);
  EXPECT_EQ(*ids, (wire::TokenIds{1, 450, 4996, 17354, 1701, 29916}));
  const auto request = boost::json::parse(f.ex.bodies.back());
  EXPECT_EQ(request.at("content").as_string(), "The quick brown fox");
  EXPECT_TRUE(request.at("add_special").as_bool());
  auto text = f.adapter->detokenize(f.ex, *ids);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "<s> The quick brown fo");  // the "content" key
  auto vocab = f.adapter->vocab_size(f.ex);
  ASSERT_TRUE(vocab);
  EXPECT_EQ(*vocab, 32000);
}

TEST(LlamacppAdapter, HealthFromRecordedBody) {
  LlamacppFixture f;
  f.ex.on_fixture(http::Method::get, "/health", "llamacpp/health.json");
  auto h = f.adapter->health(f.ex);
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->ready);
  auto model = f.adapter->models(f.ex);
  ASSERT_TRUE(model);
  EXPECT_EQ(*model, "models/rand-45m.gguf");
}

// The recording of build b1-de3ff81 (tests/fixtures/llamacpp/README.md): -np 4 -c 4096, so four
// slots of 1,024 tokens and a KV pool of 4,096; meta.vocab_type is a number there, not a bool.
TEST(LlamacppAdapter, FactsFromTheRecordingOfBuildDe3ff81) {
  LlamacppFixture f;
  FakeExchange ex;
  ex.on_fixture(http::Method::get, "/props", "llamacpp/de3ff81/props.json");
  ex.on_fixture(http::Method::get, "/slots", "llamacpp/de3ff81/slots_idle.json");
  ex.on_fixture(http::Method::get, "/v1/models", "llamacpp/de3ff81/models.json");
  auto facts = f.adapter->facts(ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->version, "b1-de3ff81");
  EXPECT_EQ(facts->model, "tiny-llama.gguf");
  EXPECT_EQ(facts->max_running_requests, 4);
  EXPECT_EQ(facts->context_length, 1024);
  EXPECT_EQ(facts->kv_pool_tokens, 4096);
  EXPECT_FALSE(facts->speculative);
  auto vocab = f.adapter->vocab_size(ex);
  ASSERT_TRUE(vocab && *vocab);
  EXPECT_EQ(**vocab, 32000);
}

// A slot the real server reported busy mid-generation, then all idle.
TEST(LlamacppAdapter, WaitIdleWaitsOutARecordedBusySlot) {
  LlamacppFixture f;
  FakeExchange ex;
  ex.on_fixture(http::Method::get, "/slots", "llamacpp/de3ff81/slots_busy.json");
  ex.on_fixture(http::Method::get, "/slots", "llamacpp/de3ff81/slots_idle.json");
  ASSERT_TRUE(f.adapter->wait_idle(ex, f.clock.now() + 10s));
  EXPECT_EQ(ex.calls.size(), 2u);
}

// --no-slots answers /slots with 501: the adapter reads the gauges of /metrics instead.
TEST(LlamacppAdapter, WaitIdleWithSlotsDisabledReadsTheRecordedGauges) {
  LlamacppFixture f;
  FakeExchange ex;
  ex.on(http::Method::get, "/slots", 501, recorded_body("llamacpp/de3ff81/slots_disabled.txt"));
  ex.on_fixture(http::Method::get, "/metrics", "llamacpp/de3ff81/metrics_busy.prom");
  ex.on_fixture(http::Method::get, "/metrics", "llamacpp/de3ff81/metrics.prom");
  ASSERT_TRUE(f.adapter->wait_idle(ex, f.clock.now() + 10s));
  EXPECT_EQ(ex.calls, (std::vector<std::string>{"GET /slots", "GET /metrics", "GET /slots", "GET /metrics"}));
}

// Without --metrics the real server answers 501 (not 404): the error still says what to change.
TEST(LlamacppAdapter, SnapshotWithoutMetricsSaysHowToStart) {
  LlamacppFixture f;
  FakeExchange ex;
  ex.on(http::Method::get, "/metrics", 501, recorded_body("llamacpp/de3ff81/metrics_disabled.txt"));
  auto r = f.adapter->snapshot(ex);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("HTTP 501"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("start llama-server with --metrics"), std::string::npos) << r.error().message;
}

// After a 7-token prompt without the cache, the same prompt with it (6 cached), and a 2-token
// prompt (1 cached): 8 + 4 + 900 tokens generated.
TEST(LlamacppAdapter, SnapshotOfTheRecordedRun) {
  LlamacppFixture f;
  f.ex.on_fixture(http::Method::get, "/metrics", "llamacpp/de3ff81/metrics.prom");
  auto c = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->prompt_tokens, 9);
  EXPECT_EQ(c->cached_tokens, 7);
  EXPECT_EQ(c->generation_tokens, 912);
  EXPECT_EQ(c->running, 0);
}

TEST(LlamacppAdapter, TokenizeReadsRecordedPieces) {
  LlamacppFixture f;
  f.ex.on_fixture(http::Method::post, "/tokenize", "llamacpp/de3ff81/tokenize_pieces.json");
  auto ids = f.adapter->tokenize(f.ex, "The quick brown fox", SpecialTokens::omit);
  ASSERT_TRUE(ids) << ids.error().message;
  EXPECT_EQ(*ids, (wire::TokenIds{450, 4996, 17354, 1701, 29916}));
}

}  // namespace
}  // namespace servebench::engines
