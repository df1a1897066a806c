#include "servebench/sim/sim_config.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

TEST(SimConfig, DefaultsAreValid) { EXPECT_TRUE(validate(SimConfig{})); }

TEST(SimConfig, RejectsOutOfRangeFlags) {
  SimConfig c;
  c.mem_fraction_static = 1.2;
  EXPECT_FALSE(validate(c));
  c = {};
  c.tp_size = 4;
  c.ep_size = 3;
  EXPECT_FALSE(validate(c));
  c = {};
  c.sim_accept_rates = {1.0};
  EXPECT_FALSE(validate(c));
  c = {};
  c.pp_size = 2;
  c.speculative_algorithm = SpecAlgorithm::eagle3;
  EXPECT_FALSE(validate(c));
}

TEST(SimConfig, ParsesSglangSpellings) {
  EXPECT_EQ(parse_kv_cache_dtype("fp8_e4m3").value(), KvCacheDtype::fp8_e4m3);
  EXPECT_EQ(parse_kv_cache_dtype("bfloat16").value(), KvCacheDtype::bf16);
  EXPECT_FALSE(parse_kv_cache_dtype("fp4"));
  EXPECT_EQ(parse_spec_algorithm("EAGLE3").value(), SpecAlgorithm::eagle3);
  EXPECT_EQ(to_string(SpecAlgorithm::nextn), "NEXTN");
  EXPECT_FALSE(parse_spec_algorithm("eagle"));
}

TEST(SimConfig, MultiNodeNeedsAnEvenSplitARankInRangeAndRankZerosAddress) {
  SimConfig c;
  c.tp_size = 8;
  c.nnodes = 2;
  EXPECT_FALSE(validate(c)) << "no --dist-init-addr";
  c.dist_init_addr = "10.0.0.1:20000";
  EXPECT_TRUE(validate(c));
  c.node_rank = 2;
  EXPECT_FALSE(validate(c));
  c.node_rank = 1;
  EXPECT_TRUE(validate(c));
  c.nnodes = 3;
  c.node_rank = 0;
  auto uneven = validate(c);
  ASSERT_FALSE(uneven);
  EXPECT_NE(uneven.error().message.find("do not split evenly over --nnodes 3"), std::string::npos);
}
