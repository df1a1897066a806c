#include "servebench/sim/server_info.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "servebench/engines/adapter.hpp"
#include "servebench/sim/server_info_launch.hpp"

using namespace servebench;
using namespace servebench::sim;

namespace {

Deployment eagle_deployment() {
  SimConfig c;
  c.speculative_algorithm = SpecAlgorithm::eagle3;
  c.speculative_num_steps = 3;
  c.speculative_num_draft_tokens = 4;
  c.max_running_requests = 16;
  return make_deployment(c).value();
}

FrontFacts front_facts() {
  FrontFacts f;
  f.version = "0.1.0";
  f.model_path = "meta-llama/Llama-3.1-8B-Instruct";
  f.served_model_name = "llama";
  f.host = "127.0.0.1";
  f.port = 30000;
  f.recorded_flags = {{"--moe-runner-backend", "deep_gemm"}, {"--enable-metrics", ""}};
  return f;
}

// Answers /server_info and /v1/models from the encoders, like the running front.
class FactsExchange final : public http::Exchange {
 public:
  FactsExchange(const Deployment& d, const FrontFacts& f) {
    ServerStats stats;
    stats.ready = true;
    append_server_info(m_info, describe(d), d, f, stats);
    append_models(m_models, d, f);
  }
  util::Result<http::Response> send(const http::Request& request, std::chrono::milliseconds) override {
    if (request.target == "/server_info") return http::Response{200, m_info, "application/json"};
    if (request.target == "/v1/models") return http::Response{200, m_models, "application/json"};
    return http::Response{404, "{}", "application/json"};
  }
  const std::string& base_url() const override { return m_url; }
  std::string m_info, m_models, m_url = "http://127.0.0.1:1";
};

}  // namespace

TEST(ServerInfo, CarriesSglangKeysRecordedFlagsAndTheSimBlock) {
  const Deployment d = eagle_deployment();
  FactsExchange ex(d, front_facts());
  const auto info = boost::json::parse(ex.m_info).as_object();
  for (const char* key :
       {"tp_size", "pp_size", "ep_size", "mem_fraction_static", "max_running_requests", "chunked_prefill_size",
        "context_length", "kv_cache_dtype", "disable_radix_cache", "enable_hierarchical_cache", "cuda_graph_max_bs",
        "speculative_algorithm", "speculative_num_steps", "speculative_eagle_topk", "speculative_num_draft_tokens",
        "max_total_num_tokens", "version", "internal_states"}) {
    EXPECT_TRUE(info.contains(key)) << key;
  }
  EXPECT_EQ(info.at("model_path"), "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(info.at("port"), 30000);
  EXPECT_EQ(info.at("status"), "ready");
  EXPECT_EQ(info.at("recorded_flags").at("--moe-runner-backend"), "deep_gemm");
  EXPECT_EQ(info.at("sim").at("hardware"), "h200");
  EXPECT_EQ(info.at("sim").at("model"), "llama-3.1-8b");
  EXPECT_EQ(info.at("sim").at("vocab_size"), 128256);  // the card's, so clients draw prompt ids from it
  EXPECT_TRUE(info.at("sim").as_object().contains("bandwidth_efficiency"));
}

TEST(ServerInfo, SimAdapterReadsTheFacts) {
  const Deployment d = eagle_deployment();
  FactsExchange ex(d, front_facts());
  auto adapter = engines::make_adapter("sim");
  ASSERT_TRUE(adapter);
  const auto facts = (*adapter)->facts(ex);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->version, "0.1.0");
  EXPECT_EQ(facts->context_length, d.context_length);
  EXPECT_EQ(facts->kv_pool_tokens, d.memory.max_total_num_tokens);
  EXPECT_EQ(facts->max_running_requests, 16);
  ASSERT_TRUE(facts->speculative);
  EXPECT_EQ(facts->speculative->algorithm, "EAGLE3");
  EXPECT_EQ(facts->speculative->num_steps, 3);
  EXPECT_EQ(facts->speculative->num_draft_tokens, 4);
}

TEST(ServerInfo, ModelsListsTheServedNameWithMaxModelLen) {
  const Deployment d = eagle_deployment();
  std::string out;
  append_models(out, d, front_facts());
  const auto models = boost::json::parse(out).as_object();
  const auto& model = models.at("data").as_array().at(0).as_object();
  EXPECT_EQ(model.at("id"), "llama");
  EXPECT_EQ(model.at("max_model_len"), d.context_length);
}

// A bench result line carries its server's /server_info; sim validate rebuilds the launch from it.
TEST(ServerInfo, TheBodyRebuildsTheLaunchThatMadeIt) {
  const Deployment d = eagle_deployment();
  FactsExchange ex(d, front_facts());
  const auto words = launch_args_of_server_info(boost::json::parse(ex.m_info).as_object());
  ASSERT_TRUE(words);
  std::string line;
  for (const auto& w : *words) line += w + " ";
  for (const char* want : {"--tp-size 1 ", "--speculative-algorithm EAGLE3 ", "--speculative-num-steps 3 ",
                           "--speculative-num-draft-tokens 4 ", "--max-running-requests 16 ", "--hw h200 ",
                           "--model llama-3.1-8b ", "--sim-engine sglang ", "--kv-cache-dtype auto ",
                           "--model-path meta-llama/Llama-3.1-8B-Instruct "}) {
    EXPECT_NE(line.find(want), std::string::npos) << want << " in: " << line;
  }
  // false and null say nothing; the efficiencies stay the cards' (a calibration must be able to move them).
  for (const char* absent : {"--disable-radix-cache", "--context-length", "--sim-mfu", "--port", "--host"}) {
    EXPECT_EQ(line.find(absent), std::string::npos) << absent << " in: " << line;
  }
  // A real SGLang body names no cards; another engine's body has none of the keys.
  const auto sglang = launch_args_of_server_info(boost::json::parse(R"({"tp_size": 8, "enable_dp_attention": true})").as_object());
  ASSERT_TRUE(sglang);
  EXPECT_EQ(*sglang, (std::vector<std::string>{"--tp-size", "8", "--enable-dp-attention"}));
  EXPECT_FALSE(launch_args_of_server_info(boost::json::parse(R"({"version": "b5000", "n_ctx": 4096})").as_object()));
}
