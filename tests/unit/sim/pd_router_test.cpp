// The router of a disaggregated deployment (docs/sim.md "Disaggregation: the router") in front of
// two in-process simulated parts on loopback, in fast timing.
#include "servebench/sim/pd_router.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "servebench/http/blocking_client.hpp"
#include "servebench/wire/disaggregation_facts.hpp"
#include "servebench/wire/metric_names.hpp"
#include "servebench/wire/prometheus.hpp"
#include "support/ephemeral_sim.hpp"

using namespace servebench;
using namespace std::chrono_literals;

namespace {

sim::SimConfig router_part_config(sim::DisaggregationMode mode) {
  sim::SimConfig c;
  c.disaggregation.mode = mode;
  return c;
}

struct PdDeployment {
  servebench::testing::EphemeralSim prefill{servebench::testing::fast_front_options(), router_part_config(sim::DisaggregationMode::prefill)};
  servebench::testing::EphemeralSim decode{servebench::testing::fast_front_options(), router_part_config(sim::DisaggregationMode::decode)};
  std::unique_ptr<sim::PdRouter> router;
  std::unique_ptr<http::BlockingClient> client;

  PdDeployment() {
    sim::RouterOptions o;
    o.prefill_urls = {prefill.base_url()};
    o.decode_urls = {decode.base_url()};
    router = sim::PdRouter::create(o).value();
    EXPECT_TRUE(router->start());
    client = http::BlockingClient::create(router->base_url()).value();
  }
  http::Response send(http::Method method, std::string target, std::string body = "") {
    auto r = client->send({method, std::move(target), std::move(body), "application/json", {}}, 20s);
    EXPECT_TRUE(r) << r.error().message;
    return r.value_or(http::Response{});
  }
  double metric(std::string_view name) {
    return wire::sum_metric(wire::parse_prometheus(send(http::Method::get, "/metrics").body), name).value_or(-1);
  }
};

std::string token_ids_text(int n, int first) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? "," : "") + std::to_string(first + i);
  return out;
}

}  // namespace

TEST(PdRouter, ACompletionIsPrefilledOnOnePartAndGeneratedOnTheOther) {
  PdDeployment d;
  const auto r = d.send(http::Method::post, "/v1/completions",
                        R"({"prompt":[)" + token_ids_text(300, 1000) + R"(],"max_tokens":25,"ignore_eos":true})");
  ASSERT_EQ(r.status, 200) << r.body;
  const auto usage = boost::json::parse(r.body).at("usage").as_object();
  EXPECT_EQ(usage.at("completion_tokens").as_int64(), 25);
  EXPECT_EQ(usage.at("prompt_tokens").as_int64(), 300);
  namespace metric = wire::sglang_metric;
  EXPECT_EQ(d.metric(metric::k_prompt_tokens_total), 300);  // the prefill part's count
  EXPECT_EQ(d.metric(metric::k_generation_tokens_total), 25);  // the decode part's: it generated them all
  EXPECT_EQ(d.metric(metric::k_kv_transfers_total), 1);
  EXPECT_EQ(d.metric(metric::k_kv_transfer_tokens_total), 300);
  EXPECT_EQ(d.metric(metric::k_num_running_reqs) + d.metric(metric::k_num_queue_reqs), 0) << "idle after the answer";
}

TEST(PdRouter, AStreamIsRelayedChunkByChunkToItsEnd) {
  PdDeployment d;
  const auto r = d.send(http::Method::post, "/v1/completions",
                        R"({"prompt":[)" + token_ids_text(64, 500) + R"(],"max_tokens":10,"ignore_eos":true,"stream":true})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type.find("text/event-stream"), 0u) << r.content_type;
  std::size_t events = 0;
  for (std::size_t at = r.body.find("data: {"); at != std::string::npos; at = r.body.find("data: {", at + 1)) ++events;
  EXPECT_EQ(events, 10u);  // one chunk per decode step: the prefill part's token never reaches the client
  EXPECT_NE(r.body.find("data: [DONE]"), std::string::npos);
}

TEST(PdRouter, ThePrefillPartsRefusalReachesTheClientAsItGaveIt) {
  PdDeployment d;
  const auto r = d.send(http::Method::post, "/v1/completions", R"({"prompt":[1,2],"max_tokens":-1})");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("max_tokens"), std::string::npos) << r.body;
  EXPECT_EQ(d.metric(wire::sglang_metric::k_kv_transfers_total), 0) << "nothing reached the decode part";
}

TEST(PdRouter, ServerInfoSaysRouterWithItsPartsAndTheDecodePartsFacts) {
  PdDeployment d;
  const auto r = d.send(http::Method::get, "/server_info");
  ASSERT_EQ(r.status, 200);
  const auto info = boost::json::parse(r.body).as_object();
  const auto facts = wire::disaggregation_of_server_info(info);
  ASSERT_TRUE(facts.has_value());
  EXPECT_EQ(facts->mode, "router");
  EXPECT_EQ(facts->prefill_urls, std::vector<std::string>{d.prefill.base_url()});
  EXPECT_EQ(facts->decode_urls, std::vector<std::string>{d.decode.base_url()});
  ASSERT_TRUE(facts->kv_transfer.has_value());
  EXPECT_DOUBLE_EQ(*facts->kv_transfer->bytes_per_token, 131072);
  EXPECT_EQ(facts->kv_transfer->backend, "mooncake");
  EXPECT_TRUE(info.at("max_total_num_tokens").is_int64()) << "the decode part's pool bounds a request";
  EXPECT_EQ(info.at("decode").as_array().at(0).at("disaggregation_mode").as_string(), "decode");
  EXPECT_EQ(info.at("prefill").as_array().at(0).at("disaggregation_mode").as_string(), "prefill");
}

TEST(PdRouter, FlushAndHealthSpeakForEveryPart) {
  PdDeployment d;
  EXPECT_EQ(d.send(http::Method::get, "/health").status, 200);
  EXPECT_EQ(d.send(http::Method::post, "/flush_cache").status, 200);
  EXPECT_EQ(d.send(http::Method::post, "/tokenize", R"({"prompt":"hello world"})").status, 200);
  d.decode.server().stop();
  const auto health = d.send(http::Method::get, "/health");
  EXPECT_EQ(health.status, 503);
  EXPECT_NE(health.body.find(d.decode.base_url()), std::string::npos) << health.body;
}

TEST(PdRouter, PartUrlsAreCheckedWhenTheRouterIsMade) {
  sim::RouterOptions o;
  o.prefill_urls = {"https://127.0.0.1:1"};
  o.decode_urls = {"http://127.0.0.1:2"};
  const auto r = sim::PdRouter::create(o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--prefill https://127.0.0.1:1"), std::string::npos) << r.error().message;
  o.prefill_urls.clear();
  EXPECT_FALSE(sim::PdRouter::create(o));
}
