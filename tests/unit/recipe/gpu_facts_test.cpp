#include "servebench/recipe/gpu_facts.hpp"

#include <gtest/gtest.h>

using namespace servebench::recipe;

TEST(GpuFacts, ReadsNameSmFamilyAndIgnoresSimulatorKeys) {
  const auto g = parse_gpu_facts("gpus:\n  - {name: h100, label: H100 SXM, sm: 90, family: hopper, hbm_tbs: 3.35}\n"
                                 "  - {name: b200, sm: 100, family: blackwell}\n", "hw.yaml");
  ASSERT_TRUE(g) << g.error().message;
  ASSERT_EQ(g->size(), 2u);
  EXPECT_EQ(g->at(0).label, "H100 SXM");
  EXPECT_EQ(g->at(1).label, "b200");
  EXPECT_EQ(find_gpu(*g, "b200")->sm, 100);
  EXPECT_EQ(find_gpu(*g, "b300"), nullptr);
}

TEST(GpuFacts, EntryWithoutSmIsAnError) {
  const auto g = parse_gpu_facts("gpus:\n  - {name: h100, family: hopper}\n", "hw.yaml");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message.find("gpu 'h100' sm must be an integer"), std::string::npos) << g.error().message;
}

TEST(GpuFacts, ShippedHardwareFileHasTheCookbookGpus) {
  const auto g = load_gpu_facts();
  ASSERT_TRUE(g) << g.error().message;
  for (const char* name : {"h100", "h200", "b200", "b300", "gb200", "gb300"}) EXPECT_NE(find_gpu(*g, name), nullptr) << name;
  EXPECT_EQ(find_gpu(*g, "gb300")->sm, 103);
  EXPECT_EQ(find_gpu(*g, "h200")->family, "hopper");
}
