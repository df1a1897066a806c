#include "servebench/recipe/campaign_writer.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "servebench/util/yaml_file.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

const ParallelismFlags k_sglang{"--tp-size", "--pp-size", "--dp-size", "--ep-size", "--enable-dp-attention", "--nnodes"};

}  // namespace

TEST(CampaignWriter, ArmsAreRenderedSelectionsWithTheirRecipeKey) {
  const Catalog c = example();
  CampaignRequest req;
  req.selections = {*parse_selection(c, "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang"),
                    *parse_selection(c, "hw=b200,strategy=high-throughput,quant=fp8")};
  const auto text = campaign_yaml(c, req, k_sglang);
  ASSERT_TRUE(text) << text.error().message;
  const auto doc = servebench::util::load_yaml_string(*text, "campaign.yaml");
  ASSERT_TRUE(doc) << *text;
  const YAML::Node root = doc->root;
  EXPECT_EQ(root["name"].as<std::string>(), "glm-5.3-flash-recipe");
  EXPECT_EQ(root["model"].as<std::string>(), "glm-5.3-flash");
  EXPECT_EQ(root["protocol"]["num_prompts"].as<std::string>(), "max(16, 5*c)");
  ASSERT_EQ(root["arms"].size(), 2u);
  const YAML::Node a = root["arms"][0];
  EXPECT_EQ(a["name"].as<std::string>(), "gb300-low-latency-fp8-bf16-tilelang");
  EXPECT_EQ(a["engine"].as<std::string>(), "sim");
  EXPECT_TRUE(a["launch"].as<std::string>().starts_with(
      "servebench serve-sim --hw gb300 --model glm-5.3-flash --model-path zai-org/GLM-5.3-Flash --tp-size 4"));
  EXPECT_NE(a["launch"].as<std::string>().find("--host 127.0.0.1 --port {port}"), std::string::npos);
  EXPECT_TRUE(a["launch"].as<std::string>().ends_with(" --sim-oracle"));
  EXPECT_EQ(a["gpus"].as<int>(), 4);
  EXPECT_EQ(a["recipe"]["catalog"].as<std::string>(), "glm-5.3-flash");
  EXPECT_EQ(a["recipe"]["select"].as<std::string>(), "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang");
  EXPECT_TRUE(a["gate"]["required"].as<bool>());
  EXPECT_EQ(root["arms"][1]["name"].as<std::string>(), "b200-high-throughput-fp8");
  EXPECT_EQ(root["arms"][1]["gpus"].as<int>(), 8);
  EXPECT_EQ(root["scenarios"].size(), 2u);
  EXPECT_EQ(root["scenarios"][0]["concurrency"].as<std::vector<int>>(), (std::vector<int>{1, 16, 80}));
}

TEST(CampaignWriter, EngineTargetUsesTheRealCommand) {
  const Catalog c = example();
  CampaignRequest req{{*parse_selection(c, "hw=h200,strategy=low-latency,quant=fp8")}, Target::engine, "hopper"};
  const auto text = campaign_yaml(c, req, k_sglang);
  ASSERT_TRUE(text);
  const auto doc = servebench::util::load_yaml_string(*text, "campaign.yaml");
  const YAML::Node a = doc->root["arms"][0];
  EXPECT_EQ(doc->root["name"].as<std::string>(), "hopper");
  EXPECT_EQ(a["engine"].as<std::string>(), "sglang");
  EXPECT_TRUE(a["launch"].as<std::string>().starts_with("sglang serve --model-path zai-org/GLM-5.3-Flash"));
  EXPECT_NE(a["launch"].as<std::string>().find("--host 127.0.0.1 --port {port}"), std::string::npos);
  EXPECT_EQ(a["launch"].as<std::string>().find("--sim-"), std::string::npos);
  EXPECT_EQ(a["gpus"].as<int>(), 8);
}

TEST(CampaignWriter, DisabledOrRepeatedSelectionsAreRefused) {
  const Catalog c = example();
  CampaignRequest disabled{{*parse_selection(c, "hw=b200,strategy=low-latency,quant=fp8,dcp=4")}};
  const auto r = campaign_yaml(c, disabled, k_sglang);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("DCP is validated only on 4x GB300"), std::string::npos);
  const Selection s = *parse_selection(c, "hw=b200,strategy=low-latency,quant=fp8");
  CampaignRequest twice{{s, s}};
  EXPECT_NE(campaign_yaml(c, twice, k_sglang).error().message.find("given twice"), std::string::npos);
}
