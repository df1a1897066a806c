#include "servebench/wire/server_facts.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::wire {
namespace {

TEST(ServerFacts, JsonHasEveryKeyWithNullForUnknown) {
  ServerFacts f;
  f.engine = "sim";
  f.context_length = 270336;
  f.speculative = SpeculativeFacts{"EAGLE3", 4, 1, std::nullopt};
  const auto o = to_json(f);
  EXPECT_EQ(o.at("engine").as_string(), "sim");
  EXPECT_EQ(o.at("context_length").as_int64(), 270336);
  EXPECT_TRUE(o.at("kv_pool_tokens").is_null());
  EXPECT_TRUE(o.at("max_running_requests").is_null());
  EXPECT_EQ(o.at("speculative").as_object().at("num_steps").as_int64(), 4);
  EXPECT_TRUE(o.at("speculative").as_object().at("num_draft_tokens").is_null());
  f.speculative.reset();
  EXPECT_TRUE(to_json(f).at("speculative").is_null());
}

TEST(SimFacts, ReadFromTheSimulatorsServerInfoBlock) {
  const auto info = boost::json::parse(R"({"version": "0.5.6", "sim": {"hardware": "h200", "model": "llama-3.1-8b",
      "engine": "vllm", "vocab_size": 128256, "gpus": 2, "context_length": 131072, "time_scale": 0.2, "oracle": true, "mfu": 0.5}})");
  const auto sim = sim_facts_of_server_info(info.as_object());
  ASSERT_TRUE(sim);
  EXPECT_EQ(sim->hardware, "h200");
  EXPECT_EQ(sim->model, "llama-3.1-8b");
  EXPECT_EQ(sim->engine, "vllm");
  EXPECT_EQ(sim->vocab_size, 128256);
  EXPECT_EQ(sim->gpus, 2);
  EXPECT_EQ(sim->context_length, 131072);
  EXPECT_EQ(sim->time_scale, 0.2);
  EXPECT_EQ(sim->oracle, true);
  // The whole block is kept as written, keys servebench does not type included.
  EXPECT_EQ(sim->block, info.at("sim").as_object());
}

TEST(SimFacts, AbsentForARealEngineAndEmptyWhereTheBlockIsSilent) {
  EXPECT_FALSE(sim_facts_of_server_info(boost::json::parse(R"({"version": "0.5.6"})").as_object()));
  EXPECT_FALSE(sim_facts_of_server_info(boost::json::parse(R"({"sim": "h200"})").as_object()));
  const auto sim = read_sim_facts(boost::json::parse(R"({"time_scale": 0, "hardware": 7})").as_object());
  EXPECT_EQ(sim.time_scale, 0.0);
  EXPECT_EQ(sim.hardware, "");
  EXPECT_EQ(sim.engine, "");
  EXPECT_FALSE(sim.vocab_size);
  EXPECT_FALSE(sim.oracle);
}

}  // namespace
}  // namespace servebench::wire
