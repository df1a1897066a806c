#include "servebench/wire/server_info_encoder.hpp"

#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "servebench/engines/adapter.hpp"
#include "servebench/wire/models_encoder.hpp"
#include "unit/engines/fake_exchange.hpp"

namespace servebench::wire {
namespace {

using engines::testing::FakeExchange;
using engines::testing::ManualPacer;

struct Encoded {
  std::vector<InfoField> args{{"model_path", "org/model"},
                              {"tp_size", std::int64_t{2}},
                              {"mem_fraction_static", 0.85},
                              {"disable_radix_cache", true},
                              {"context_length", nullptr},
                              {"speculative_algorithm", "EAGLE3"},
                              {"speculative_num_steps", std::int64_t{3}},
                              {"speculative_eagle_topk", std::int64_t{1}},
                              {"speculative_num_draft_tokens", std::int64_t{4}}};
  std::vector<std::pair<std::string, std::string>> flags{{"--enable-metrics", ""}};
  std::vector<InfoField> sim{{"hardware", "h200"}, {"time_scale", 0.0}};
  std::string body;

  explicit Encoded(bool ready = true) {
    ServerInfo info;
    info.server_args = args;
    info.served_model_name = "served";
    info.host = "127.0.0.1";
    info.port = 30000;
    info.ready = ready;
    info.rank.weight_gb = 16.5;
    info.rank.kvcache_gb = 60;
    info.rank.token_capacity = 20480;
    info.rank.effective_max_running_requests = 48;
    info.rank.avg_spec_accept_length = 2.5;
    info.version = "0.1.0";
    info.recorded_flags = flags;
    info.sim = sim;
    encode_server_info(body, info);
  }
};

TEST(ServerInfoEncoder, WritesArgsInOrderThenSglangKeysAndTheSimBlock) {
  const Encoded e;
  const auto o = boost::json::parse(e.body).as_object();
  auto it = o.begin();
  for (const auto& arg : e.args) EXPECT_EQ((it++)->key(), arg.key);  // the caller's order first
  EXPECT_EQ(o.at("tp_size"), 2);
  EXPECT_EQ(o.at("mem_fraction_static"), 0.85);
  EXPECT_EQ(o.at("disable_radix_cache"), true);
  EXPECT_TRUE(o.at("context_length").is_null());
  EXPECT_EQ(o.at("port"), 30000);
  EXPECT_EQ(o.at("status"), "ready");
  EXPECT_EQ(o.at("enable_metrics"), true);
  const auto& state = o.at("internal_states").as_array().at(0).as_object();
  EXPECT_EQ(state.at("memory_usage").at("token_capacity"), 20480);
  EXPECT_EQ(state.at("memory_usage").at("weight"), 16.5);
  EXPECT_EQ(state.at("avg_spec_accept_length"), 2.5);
  EXPECT_EQ(o.at("recorded_flags").at("--enable-metrics"), "");
  EXPECT_EQ(o.at("sim").at("hardware"), "h200");
  EXPECT_EQ(boost::json::parse(Encoded(false).body).at("status"), "starting");
}

// The sim adapter reads the facts back; max_running_requests and the KV pool come from
// internal_states when the server args lack them, as with SGLang's own /server_info.
TEST(ServerInfoEncoder, SimAdapterReadsTheFactsBack) {
  const Encoded e;
  util::ManualClock clock;
  ManualPacer pacer{clock};
  auto adapter = engines::make_adapter(engines::Engine::sim, clock, pacer);
  FakeExchange ex;
  ex.on(http::Method::get, "/server_info", 200, e.body);
  std::string models;
  encode_models_response(models, ModelEntry{"served", 1, "sglang", "org/model", 8192});
  ex.on(http::Method::get, "/v1/models", 200, models);
  const auto facts = adapter->facts(ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->version, "0.1.0");
  EXPECT_EQ(facts->context_length, 8192);
  EXPECT_EQ(facts->kv_pool_tokens, 20480);
  EXPECT_EQ(facts->max_running_requests, 48);
  ASSERT_TRUE(facts->speculative);
  EXPECT_EQ(facts->speculative->algorithm, "EAGLE3");
  EXPECT_EQ(facts->speculative->num_steps, 3);
  EXPECT_EQ(facts->speculative->num_draft_tokens, 4);
}

}  // namespace
}  // namespace servebench::wire
