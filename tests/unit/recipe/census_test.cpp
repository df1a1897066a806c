#include "servebench/recipe/census.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

TEST(Census, ExampleDividesLikeTheCookbookPage) {
  const Census c = census(example());
  EXPECT_EQ(c.total, 1152u);
  EXPECT_EQ(c.reachable, 528u);
  EXPECT_EQ(c.greyed, 624u);
  EXPECT_EQ(c.without_cell, 192u);
  EXPECT_EQ(to_text(c),
            "1152 selections: 528 reachable, 624 greyed out, 192 without a cell\n"
            "greyed out, by reason (a selection counts once per greyed chip):\n"
            "     480  dcp=4 (disabled): DCP is validated only on 4x GB300 TP4/EP4 for now.\n"
            "     192  kvDsaPair=fp8-trtllm (disabled): FP8 KV cache with TRT-LLM DSA is not supported on Hopper GPUs.\n"
            "     192  quant=nvfp4 (disabled): The NVFP4 W4A4 kernels are Blackwell-only; Hopper cannot serve this checkpoint.\n");
  EXPECT_EQ(to_json(c).at("greyed_by_reason").as_array().size(), 3u);
}
