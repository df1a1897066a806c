#include "servebench/recipe/parallelism.hpp"

#include <gtest/gtest.h>

using namespace servebench::recipe;

namespace {

const ParallelismFlags k_flags{"--tp-size", "--pp-size", "--dp-size", "--ep-size", "--enable-dp-attention", "--nnodes"};

Parallelism of(const std::string& command) {
  auto n = servebench::flags::normalize_command(servebench::flags::Dialect::sglang, command);
  EXPECT_TRUE(n) << n.error().message;
  auto p = parallelism_of(*n, k_flags);
  EXPECT_TRUE(p) << p.error().message;
  return p ? *p : Parallelism{};
}

}  // namespace

TEST(Parallelism, AbsentFlagsAreOne) {
  const auto p = of("python3 -m sglang.launch_server --model-path m");
  EXPECT_EQ(p.tp, 1);
  EXPECT_EQ(p.gpus(), 1);
  EXPECT_FALSE(p.dp_attention);
}

TEST(Parallelism, AliasesAndDegrees) {
  const auto p = of("python3 -m sglang.launch_server --tp 8 --pp-size 2 --ep 4 --dp-size 2 --nnodes 2");
  EXPECT_EQ(p.tp, 8);
  EXPECT_EQ(p.pp, 2);
  EXPECT_EQ(p.nnodes, 2);
  EXPECT_EQ(p.gpus(), 32);      // TP x PP x DP
  EXPECT_EQ(p.moe_tp(), 2);     // TP / EP
  EXPECT_EQ(p.attention_tp(), 8);
}

TEST(Parallelism, DpAttentionSharesTheTpGpus) {
  const auto p = of("python3 -m sglang.launch_server --tp-size 8 --dp-size 4 --enable-dp-attention");
  EXPECT_TRUE(p.dp_attention);
  EXPECT_EQ(p.gpus(), 8);
  EXPECT_EQ(p.attention_tp(), 2);
}

TEST(Parallelism, NonPositiveDegreeIsAnError) {
  auto n = servebench::flags::normalize_command(servebench::flags::Dialect::sglang, "python3 -m sglang.launch_server --tp-size zero");
  ASSERT_TRUE(n);
  const auto p = parallelism_of(*n, k_flags);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message, "--tp-size must be a positive integer, got 'zero'");
}
