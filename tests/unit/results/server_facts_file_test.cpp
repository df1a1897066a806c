#include "servebench/results/server_facts_file.hpp"

#include <unistd.h>

#include <filesystem>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

namespace servebench::results {
namespace {
namespace fs = std::filesystem;

ServerFactsFile sample_facts() {
  ServerFactsFile f;
  f.arm = "e7b";
  f.engine = "sim";
  f.gpus = 8;
  f.launch = "servebench serve-sim --tp-size 8 --port {port}";
  f.launched = "/x/servebench serve-sim --tp-size 8 --port 40001";
  f.env = {{"SGLANG_X", "1"}};
  f.fingerprint = "sha256:ab";
  f.base_url = "http://127.0.0.1:40001";
  f.captured_at = "2026-11-29T17:00:00Z";
  f.recipe = RecipeOrigin{"glm", "hw=gb300"};
  wire::ServerFacts facts;
  facts.engine = "sim";
  facts.version = "0.1.0";
  facts.kv_pool_tokens = 276480;
  facts.speculative = wire::SpeculativeFacts{"EAGLE3", 4, 1, 5};
  facts.sim = wire::read_sim_facts(boost::json::parse(R"({"hardware": "h200", "time_scale": 0.2})").as_object());
  f.facts = facts;
  f.raw = boost::json::parse(R"({"/server_info": {"version": "0.1.0"}})");
  return f;
}

TEST(ServerFactsFile, WritesTheDocumentedKeysInOrder) {
  const auto o = to_json(sample_facts());
  std::vector<std::string> keys;
  for (const auto& kv : o) keys.emplace_back(kv.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schema", "arm", "engine", "gpus", "launch", "launched", "env", "fingerprint",
                                            "base_url", "captured_at", "recipe", "facts", "raw", "sim"}));
  EXPECT_EQ(o.at("schema").as_string(), "servebench.server_facts/1");
  EXPECT_EQ(o.at("sim").at("hardware").as_string(), "h200");
}

TEST(ServerFactsFile, RoundTripsThroughTheFile) {
  const auto dir = fs::temp_directory_path() / ("sb_server_facts_file_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const auto path = dir / "arms/e7b/server_facts.json";
  ASSERT_TRUE(write_server_facts(path, sample_facts()));
  auto back = read_server_facts(path);
  ASSERT_TRUE(back && *back) << (back ? "" : back.error().message);
  const ServerFactsFile& f = **back;
  EXPECT_EQ(f.arm, "e7b");
  EXPECT_EQ(f.gpus, 8);
  EXPECT_EQ(f.env, (std::vector<std::pair<std::string, std::string>>{{"SGLANG_X", "1"}}));
  ASSERT_TRUE(f.recipe);
  EXPECT_EQ(f.recipe->select, "hw=gb300");
  ASSERT_TRUE(f.facts);
  EXPECT_EQ(f.facts->kv_pool_tokens, 276480);
  EXPECT_FALSE(f.facts->context_length);
  ASSERT_TRUE(f.facts->speculative);
  EXPECT_EQ(f.facts->speculative->num_draft_tokens, 5);
  ASSERT_TRUE(f.facts->sim);
  EXPECT_EQ(f.facts->sim->time_scale, 0.2);
  EXPECT_EQ(to_json(f), to_json(sample_facts()));
  fs::remove_all(dir);
}

TEST(ServerFactsFile, ADisaggregatedArmKeepsEveryPartsFactsAndTheTransferModel) {
  ServerFactsFile f = sample_facts();
  wire::DisaggregationFacts pd;
  pd.mode = "router";
  pd.prefill_urls = {"http://127.0.0.1:1"};
  pd.decode_urls = {"http://127.0.0.1:2"};
  pd.kv_transfer = wire::KvTransferFacts{"mooncake", 131072, 131072, 41.5, 15};
  f.facts->disaggregation = pd;
  PartFacts prefill{"prefill", "servebench serve-sim --disaggregation-mode prefill --port {port}", "x", "http://127.0.0.1:1",
                    sample_facts().facts, "", boost::json::object{}};
  PartFacts router{"router", "r", "r", "http://127.0.0.1:3", std::nullopt, "GET /server_info: HTTP 502", boost::json::object{}};
  f.parts = {prefill, router};
  const auto o = to_json(f);
  EXPECT_EQ(o.at("facts").at("disaggregation").at("mode").as_string(), "router");
  EXPECT_EQ(o.at("parts").as_array().size(), 2u);
  EXPECT_EQ(o.at("parts").at(0).at("sim").at("hardware").as_string(), "h200");
  EXPECT_TRUE(o.at("parts").at(1).at("facts").at("kv_pool_tokens").is_null());
  auto back = parse_server_facts(boost::json::serialize(o), "server_facts.json");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->parts.size(), 2u);
  EXPECT_EQ(back->parts[0].part, "prefill");
  EXPECT_EQ(back->parts[1].facts_error, "GET /server_info: HTTP 502");
  ASSERT_TRUE(back->facts->disaggregation && back->facts->disaggregation->kv_transfer);
  EXPECT_NEAR(*back->facts->disaggregation->kv_transfer->time_ms(1024), 3.2492, 1e-3);
  EXPECT_EQ(to_json(*back), o);
}

TEST(ServerFactsFile, FailedFactsAreAllUnknownWithTheReason) {
  ServerFactsFile f = sample_facts();
  f.facts_error = "GET /server_info: HTTP 500";
  const auto o = to_json(f);
  EXPECT_EQ(o.at("facts_error").as_string(), "GET /server_info: HTTP 500");
  EXPECT_TRUE(o.at("facts").at("kv_pool_tokens").is_null());
  EXPECT_FALSE(o.at("facts").as_object().contains("engine"));
  EXPECT_FALSE(o.contains("sim"));
}

TEST(ServerFactsFile, MissingIsNoneAndBrokenFailsNamingTheFile) {
  auto missing = read_server_facts("/nonexistent/server_facts.json");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
  const auto dir = fs::temp_directory_path() / ("sb_server_facts_broken_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ASSERT_TRUE(util::write_file_atomic(dir / "server_facts.json", "[1, 2]"));
  auto broken = read_server_facts(dir / "server_facts.json");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(broken.error().message.find("server_facts.json"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::results
