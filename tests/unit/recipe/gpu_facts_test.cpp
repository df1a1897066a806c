#include "servebench/recipe/gpu_facts.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

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

TEST(GpuFacts, OverrideFileMergesByNameInsteadOfReplacingTheList) {
  const std::string base =
      "gpus:\n  - {name: h100, label: H100 SXM, sm: 90, family: hopper}\n"
      "  - {name: b200, sm: 100, family: blackwell}\n";
  // A user's file that only derates h100 for the simulator, relabels b200 and adds a GPU.
  const std::string over =
      "gpus:\n  - {name: h100, efficiency: {mfu: 0.4}}\n  - {name: b200, label: B200 HGX}\n"
      "  - {name: mi300x, sm: 0, family: cdna3, vendor: amd}\n";
  const auto g = merge_gpu_facts(base, "base.yaml", over, "mine.yaml");
  ASSERT_TRUE(g) << g.error().message;
  ASSERT_EQ(g->size(), 3u);
  EXPECT_EQ(find_gpu(*g, "h100")->label, "H100 SXM");  // kept: the override gave no label
  EXPECT_EQ(find_gpu(*g, "h100")->sm, 90);
  EXPECT_EQ(find_gpu(*g, "b200")->label, "B200 HGX");  // replaced
  EXPECT_EQ(find_gpu(*g, "b200")->family, "blackwell");
  EXPECT_EQ(find_gpu(*g, "mi300x")->vendor, "amd");    // added
  // A new GPU still needs its facts, and the message names the override file.
  const auto bad = merge_gpu_facts(base, "base.yaml", "gpus:\n  - {name: x1, family: hopper}\n", "mine.yaml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("mine.yaml"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("gpu 'x1' sm"), std::string::npos) << bad.error().message;
}

TEST(GpuFacts, DataDirHardwareFileWithOneCardKeepsTheBuiltInOnes) {
  const auto dir = std::filesystem::temp_directory_path() / ("sb_gpu_facts_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "hardware.yaml") << "gpus:\n  - {name: h100, label: My H100}\n";
  ::setenv("SERVEBENCH_DATA_DIR", dir.c_str(), 1);
  const auto g = load_gpu_facts();
  ::unsetenv("SERVEBENCH_DATA_DIR");
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(find_gpu(*g, "h100")->label, "My H100");
  EXPECT_EQ(find_gpu(*g, "h100")->family, "hopper");
  ASSERT_NE(find_gpu(*g, "gb300"), nullptr);  // the built-in list is still there
  EXPECT_EQ(find_gpu(*g, "gb300")->sm, 103);
}
