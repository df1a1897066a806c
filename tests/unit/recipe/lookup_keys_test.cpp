#include "servebench/recipe/lookup_keys.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

TEST(LookupKeys, CookbookOrderSkippingDimsTheCatalogLacks) {
  const Catalog c = example();  // dims hw, strategy, quant: no variant
  const std::vector<std::string> s{"b300", "low-latency", "nvfp4", "fp8-trtllm", "off", "auto", "off", "off"};
  EXPECT_EQ(lookup_keys(c, s, model_name_patterns()), (std::vector<std::string>{"b300|nvfp4", "nvfp4", "b300", "default"}));
  EXPECT_EQ(lookup_keys(c, s, docker_image_patterns()),
            (std::vector<std::string>{"b300|nvfp4|low-latency", "b300|nvfp4", "b300", "default"}));
}

TEST(LookupKeys, FirstNonEmptyValueInKeyOrder) {
  const std::vector<std::pair<std::string, std::string>> map{{"default", "d"}, {"nvfp4", "q"}, {"b300", ""}};
  EXPECT_EQ(*lookup(map, {"b300|nvfp4", "nvfp4", "b300", "default"}), "q");
  EXPECT_EQ(*lookup(map, {"b300", "default"}), "d");  // an empty value does not hit
  EXPECT_EQ(lookup(map, {"h100"}), nullptr);
}

TEST(LookupKeys, KeysMustBeProducibleBySomeSelection) {
  const Catalog c = example();
  EXPECT_TRUE(key_can_match(c, "default", model_name_patterns()));
  EXPECT_TRUE(key_can_match(c, "gb300|fp8", model_name_patterns()));
  EXPECT_FALSE(key_can_match(c, "fp8|gb300", model_name_patterns()));
  EXPECT_FALSE(key_can_match(c, "low-latency", model_name_patterns()));  // strategy is not a model-name key
  EXPECT_TRUE(key_can_match(c, "b300|fp8|high-throughput", docker_image_patterns()));
  EXPECT_EQ(describe(c, model_name_patterns()), "hw|quant, quant, hw, default");
}
