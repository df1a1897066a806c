// SGLang and simulator adapter, against hand-written SGLang responses (tests/fixtures/engines/README.md).
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "fake_exchange.hpp"
#include "servebench/engines/adapter.hpp"

namespace servebench::engines {
namespace {

using testing::FakeExchange;
using testing::ManualPacer;
using namespace std::chrono_literals;

struct SglangFixture {
  explicit SglangFixture(Engine e = Engine::sglang) : adapter(make_adapter(e, clock, pacer)) {}
  util::ManualClock clock;
  ManualPacer pacer{clock};
  std::unique_ptr<EngineAdapter> adapter;
  FakeExchange ex;
};

std::string sglang_metrics(double prompt, double cached, double running = 0) {
  return fmt::format("sglang:prompt_tokens_total{{tp_rank=\"0\"}} {}\nsglang:cached_tokens_total{{tp_rank=\"0\"}} {}\n"
                     "sglang:num_running_reqs 0\nsglang:num_queue_reqs {}\n", prompt, cached, running);
}

TEST(SglangAdapter, FlushRetriesWhileTheServerIsBusy) {
  SglangFixture f;
  // Older builds answer 400 with the success text: the status decides.
  f.ex.on(http::Method::post, "/flush_cache", 400, "Cache flushed.\nPlease check backend logs for more details.");
  f.ex.on(http::Method::post, "/flush_cache", 400, "Flush cache failed.");
  f.ex.on(http::Method::post, "/flush_cache", 200, "Cache flushed.");
  ASSERT_TRUE(f.adapter->flush(f.ex, f.clock.now() + 30s));
  ASSERT_EQ(f.ex.calls.size(), 3u);
  EXPECT_EQ(f.ex.calls[0], "POST /flush_cache?timeout=10");
  EXPECT_EQ(f.pacer.pauses, 2);
}

TEST(SglangAdapter, FlushGivesUpAtTheDeadline) {
  SglangFixture f;
  f.ex.on(http::Method::post, "/flush_cache", 400, "Flush cache failed.");
  auto r = f.adapter->flush(f.ex, f.clock.now() + 2s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("stayed busy until the deadline"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("HTTP 400"), std::string::npos);
  EXPECT_LE(f.ex.calls.size(), 10u);
  EXPECT_EQ(f.ex.calls.back(), "POST /flush_cache?timeout=0");
}

TEST(SglangAdapter, FlushNamesTheAdminKey) {
  SglangFixture f;
  f.ex.on(http::Method::post, "/flush_cache", 401, "{\"detail\":\"Unauthorized\"}");
  auto r = f.adapter->flush(f.ex, f.clock.now() + 30s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--admin-api-key"), std::string::npos);
}

TEST(SglangAdapter, WaitIdleReadsTheQueueGauges) {
  SglangFixture f;
  f.ex.on(http::Method::get, "/metrics", 200, sglang_metrics(0, 0, 3));
  f.ex.on(http::Method::get, "/metrics", 200, sglang_metrics(0, 0, 0));
  ASSERT_TRUE(f.adapter->wait_idle(f.ex, f.clock.now() + 10s));
  EXPECT_EQ(f.ex.calls.size(), 2u);
}

TEST(SglangAdapter, WaitIdleFallsBackToLoadsWithoutMetrics) {
  SglangFixture f;
  f.ex.on_fixture(http::Method::get, "/v1/loads", "engines/sglang_loads.json");
  f.ex.on(http::Method::get, "/v1/loads", 200, R"({"loads":[{"num_running_reqs":0,"num_waiting_reqs":0}]})");
  ASSERT_TRUE(f.adapter->wait_idle(f.ex, f.clock.now() + 10s));
  EXPECT_EQ(f.ex.calls, (std::vector<std::string>{"GET /metrics", "GET /v1/loads?include=core", "GET /metrics",
                                                  "GET /v1/loads?include=core"}));
}

TEST(SglangAdapter, SnapshotAndHitRate) {
  SglangFixture f;
  f.ex.on_fixture(http::Method::get, "/metrics", "engines/sglang_metrics.prom");
  f.ex.on(http::Method::get, "/metrics", 200, sglang_metrics(14000, 420));
  auto before = f.adapter->snapshot(f.ex);
  auto after = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->prompt_tokens, 12000);
  EXPECT_EQ(before->cached_tokens, 400);
  EXPECT_EQ(before->generation_tokens, 5000);
  EXPECT_EQ(before->running, 0);
  EXPECT_FALSE(before->spec_drafts);
  auto rate = f.adapter->hit_rate(*before, *after);
  ASSERT_TRUE(rate);
  EXPECT_DOUBLE_EQ(*rate, 20.0 / 2000.0);
  EXPECT_FALSE(f.adapter->accept_length(*before, *after));  // SGLang: per-request meta only
  auto idle = f.adapter->hit_rate(*after, *after);
  ASSERT_FALSE(idle);
  EXPECT_NE(idle.error().message.find("no prompt tokens"), std::string::npos);
}

TEST(SglangAdapter, SnapshotWithoutMetricsSaysHowToEnableThem) {
  SglangFixture f;
  auto s = f.adapter->snapshot(f.ex);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("--enable-metrics"), std::string::npos);
}

TEST(SglangAdapter, FactsFromServerInfoAndModels) {
  SglangFixture f;
  f.ex.on_fixture(http::Method::get, "/server_info", "engines/sglang_server_info.json");
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/sglang_models.json");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->engine, "sglang");
  EXPECT_EQ(facts->version, "0.5.6");
  EXPECT_EQ(facts->model, "Qwen/Qwen3-8B");
  EXPECT_EQ(facts->context_length, 32768);  // /v1/models, not server_info's null
  EXPECT_EQ(facts->kv_pool_tokens, 20480);
  EXPECT_EQ(facts->max_running_requests, 128);
  ASSERT_TRUE(facts->speculative);
  EXPECT_EQ(facts->speculative->algorithm, "EAGLE3");
  EXPECT_EQ(facts->speculative->num_steps, 4);
  EXPECT_EQ(facts->speculative->eagle_topk, 1);
  EXPECT_EQ(facts->speculative->num_draft_tokens, 5);
  const auto raw = boost::json::parse(facts->raw_json);
  EXPECT_EQ(raw.at("/server_info").at("tp_size").as_int64(), 2);
  EXPECT_TRUE(raw.as_object().contains("/v1/models"));
  EXPECT_FALSE(facts->sim);  // a real SGLang has no `sim` block
}

TEST(SglangAdapter, FactsFromOlderGetServerInfo) {
  SglangFixture f;
  f.ex.on_fixture(http::Method::get, "/get_server_info", "engines/sglang_server_info.json");
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/sglang_models.json");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts);
  EXPECT_TRUE(boost::json::parse(facts->raw_json).as_object().contains("/get_server_info"));
}

// SGLang's OpenAI routes carry no meta_info; the server's own average is what it reports.
TEST(SglangAdapter, ReportedAcceptLengthFromServerInfo) {
  SglangFixture f;
  EXPECT_FALSE(f.adapter->reported_accept_length(f.ex));  // nothing answers: none, not an error
  f.ex.on_fixture(http::Method::get, "/server_info", "engines/sglang_server_info.json");
  const auto reported = f.adapter->reported_accept_length(f.ex);
  ASSERT_TRUE(reported);
  EXPECT_DOUBLE_EQ(*reported, 2.8);
}

TEST(SglangAdapter, ReportedAcceptLengthIsTheMeanOverRanksAndNoneWithoutSpeculation) {
  SglangFixture f;
  f.ex.on(http::Method::get, "/server_info", 200,
          R"({"internal_states":[{"avg_spec_accept_length":2.0},{"avg_spec_accept_length":3.0},{"x":1}]})");
  EXPECT_DOUBLE_EQ(f.adapter->reported_accept_length(f.ex).value_or(0), 2.5);
  SglangFixture plain;
  plain.ex.on(http::Method::get, "/server_info", 200, R"({"internal_states":[{"memory_usage":{}}]})");
  EXPECT_FALSE(plain.adapter->reported_accept_length(plain.ex));
  SglangFixture pd;  // PD disaggregation: the decode servers' states
  pd.ex.on(http::Method::get, "/server_info", 200, R"({"decode":[{"internal_states":[{"avg_spec_accept_length":3.5}]}]})");
  EXPECT_DOUBLE_EQ(pd.adapter->reported_accept_length(pd.ex).value_or(0), 3.5);
}

TEST(SglangAdapter, TokenizeAndDetokenize) {
  SglangFixture f;
  f.ex.on_fixture(http::Method::post, "/tokenize", "engines/sglang_tokenize.json");
  f.ex.on_fixture(http::Method::post, "/detokenize", "engines/sglang_detokenize.json");
  auto ids = f.adapter->tokenize(f.ex, "Hello world!", SpecialTokens::omit);
  ASSERT_TRUE(ids);
  EXPECT_EQ(*ids, (wire::TokenIds{9707, 1879, 0}));
  EXPECT_EQ(boost::json::parse(f.ex.bodies[0]), boost::json::parse(R"({"prompt":"Hello world!","add_special_tokens":false})"));
  auto text = f.adapter->detokenize(f.ex, *ids);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "Hello world!");
  EXPECT_EQ(f.ex.bodies[1], R"({"tokens":[9707,1879,0]})");
}

TEST(SimAdapter, SpeculativeCountersGiveTheAcceptLength) {
  SglangFixture f(Engine::sim);
  f.ex.on_fixture(http::Method::get, "/metrics", "engines/sim_metrics.prom");
  f.ex.on(http::Method::get, "/metrics", 200,
          "sglang:prompt_tokens_total 8192\nsglang:cached_tokens_total 0\nsglang:spec_verify_ct_total 350\n"
          "sglang:spec_accepted_tokens_total 1050\n");
  auto before = f.adapter->snapshot(f.ex);
  auto after = f.adapter->snapshot(f.ex);
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->spec_drafts, 250);
  EXPECT_EQ(before->spec_accepted_tokens, 750);
  EXPECT_DOUBLE_EQ(*f.adapter->accept_length(*before, *after), 1.0 + 300.0 / 100.0);
  EXPECT_DOUBLE_EQ(*f.adapter->hit_rate(*before, *after), 0.0);
  EXPECT_FALSE(f.adapter->accept_length(*after, *after));
}

TEST(SimAdapter, FactsSayTheEngineIsTheSimulator) {
  SglangFixture f(Engine::sim);
  f.ex.on_fixture(http::Method::get, "/server_info", "engines/sglang_server_info.json");
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/sglang_models.json");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->engine, "sim");
}

TEST(SimAdapter, FactsCarryTheTypedSimBlock) {
  SglangFixture f(Engine::sim);
  f.ex.on(http::Method::get, "/server_info", 200, R"({"version":"x","sim":{"hardware":"h200","time_scale":0.25}})");
  f.ex.on_fixture(http::Method::get, "/v1/models", "engines/sglang_models.json");
  auto facts = f.adapter->facts(f.ex);
  ASSERT_TRUE(facts) << facts.error().message;
  ASSERT_TRUE(facts->sim);
  EXPECT_EQ(facts->sim->hardware, "h200");
  EXPECT_EQ(facts->sim->time_scale, 0.25);
}

TEST(SimAdapter, VocabularySizeComesFromTheSimBlock) {
  SglangFixture sim(Engine::sim);
  sim.ex.on(http::Method::get, "/server_info", 200, R"({"version":"x","sim":{"vocab_size":151552}})");
  EXPECT_EQ(*sim.adapter->vocab_size(sim.ex), 151552);
  SglangFixture no_block(Engine::sim);
  no_block.ex.on(http::Method::get, "/server_info", 200, R"({"version":"x"})");
  EXPECT_EQ(*no_block.adapter->vocab_size(no_block.ex), std::nullopt);
  SglangFixture real;  // SGLang itself does not publish it: no request is made
  EXPECT_EQ(*real.adapter->vocab_size(real.ex), std::nullopt);
}

}  // namespace
}  // namespace servebench::engines
