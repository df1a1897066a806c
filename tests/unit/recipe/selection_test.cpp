#include "servebench/recipe/selection.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

TEST(Selection, OverlaysDefaultAndCanonicalTextOmitsThem) {
  const Catalog c = mini();
  const auto s = parse_selection(c, "quant=fp8, hw=b200");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->options, (std::vector<std::string>{"b200", "fp8", "bf16", "cell"}));
  EXPECT_EQ(to_string(c, *s), "hw=b200,quant=fp8");
  EXPECT_EQ(overlays_changed(c, *s), 0u);
}

TEST(Selection, NonDefaultOverlaysAppearInDimOrder) {
  const Catalog c = mini();
  const auto s = parse_selection(c, "tp=tp8,hw=b200,kv=fp8,quant=fp8");
  ASSERT_TRUE(s);
  EXPECT_EQ(to_string(c, *s), "hw=b200,quant=fp8,kv=fp8,tp=tp8");
  EXPECT_EQ(arm_name(c, *s), "b200-fp8-fp8-tp8");
  EXPECT_EQ(overlays_changed(c, *s), 2u);
  EXPECT_EQ(to_pairs(c, *s).at(2), (std::pair<std::string, std::string>{"kv", "fp8"}));
}

TEST(Selection, MissingMatchDimIsAnError) {
  const auto s = parse_selection(mini(), "hw=b200");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "selection needs 'quant' (one of: fp8, nvfp4)");
}

TEST(Selection, UnknownOptionListsTheValidOnes) {
  const auto s = parse_selection(mini(), "hw=b300,quant=fp8");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_EQ(s.error().message, "'b300' is not an option of 'hw'; options: b200, h100");
}

TEST(Selection, UnknownDimAndRepeatsAreErrors) {
  EXPECT_EQ(parse_selection(mini(), "gpu=b200").error().message,
            "unknown dimension 'gpu' in selection; dimensions: hw, quant, kv, tp");
  EXPECT_EQ(parse_selection(mini(), "hw=b200,hw=h100").error().message, "dimension 'hw' is selected twice");
  EXPECT_FALSE(parse_selection(mini(), "hw"));
}

TEST(Selection, AllSelectionsIsTheProduct) {
  const Catalog c = mini();
  const auto all = all_selections(c);
  ASSERT_EQ(all.size(), 2u * 2u * 2u * 2u);
  EXPECT_EQ(all.front().options, (std::vector<std::string>{"b200", "fp8", "bf16", "cell"}));
  EXPECT_EQ(all[1].options, (std::vector<std::string>{"b200", "fp8", "bf16", "tp8"}));  // overlays vary fastest
  EXPECT_EQ(all.back().options, (std::vector<std::string>{"h100", "nvfp4", "fp8", "tp8"}));
}

TEST(Selection, FindsTheCellOfItsKey) {
  const Catalog c = mini();
  const auto s = parse_selection(c, "hw=b200,quant=nvfp4,kv=fp8");
  ASSERT_TRUE(s);
  const Cell* cell = find_cell(c, *s);
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell, &c.cells[1]);
  EXPECT_EQ(cell_selection(c, *cell).options, (std::vector<std::string>{"b200", "nvfp4", "bf16", "cell"}));
  EXPECT_EQ(find_cell(c, *parse_selection(c, "hw=h100,quant=nvfp4")), nullptr);
}

TEST(Selection, DisableReasonsCollectEveryApplyingRuleOnce) {
  const Catalog c = mini();
  EXPECT_TRUE(disable_reasons(c, *parse_selection(c, "hw=b200,quant=nvfp4")).empty());
  EXPECT_EQ(disable_reasons(c, *parse_selection(c, "hw=h100,quant=nvfp4")),
            (std::vector<std::string>{"NVFP4 W4A4 kernels are Blackwell-only"}));
  // The kv=fp8 rule needs hw=h100 AND quant=fp8.
  EXPECT_EQ(disable_reasons(c, *parse_selection(c, "hw=h100,quant=fp8,kv=fp8")),
            (std::vector<std::string>{"fp8 KV is validated on Blackwell only"}));
  EXPECT_TRUE(disable_reasons(c, *parse_selection(c, "hw=b200,quant=fp8,kv=fp8")).empty());
}

TEST(SelectionFilter, AcceptsPartialMatches) {
  const Catalog c = mini();
  const auto f = parse_filter(c, "hw=h100");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->accepts(*parse_selection(c, "hw=h100,quant=fp8")));
  EXPECT_FALSE(f->accepts(*parse_selection(c, "hw=b200,quant=fp8")));
  EXPECT_TRUE(parse_filter(c, "")->accepts(*parse_selection(c, "hw=b200,quant=fp8")));
}

TEST(Selection, ExampleRulesCarryTheCookbooksReasons) {
  const Catalog c = example();
  EXPECT_EQ(disable_reasons(c, *parse_selection(c, "hw=h200,strategy=low-latency,quant=nvfp4")),
            (std::vector<std::string>{"The NVFP4 W4A4 kernels are Blackwell-only; Hopper cannot serve this checkpoint."}));
  EXPECT_EQ(disable_reasons(c, *parse_selection(c, "hw=b200,strategy=low-latency,quant=fp8,dcp=4")),
            (std::vector<std::string>{"DCP is validated only on 4x GB300 TP4/EP4 for now."}));
  EXPECT_TRUE(disable_reasons(c, *parse_selection(c, "hw=gb300,strategy=high-throughput,quant=fp8,dcp=4")).empty());
}

TEST(Selection, DefaultThatTheSelectionGreysOutMovesToTheFirstUsableOption) {
  const Catalog c = example();
  // kvDsaPair's first option, fp8-trtllm, is disabled on Hopper: the default there is bf16-tilelang.
  const auto hopper = parse_selection(c, "hw=h200,strategy=low-latency,quant=fp8");
  ASSERT_TRUE(hopper);
  EXPECT_EQ(hopper->options.at(3), "bf16-tilelang");
  EXPECT_EQ(to_string(c, *hopper), "hw=h200,strategy=low-latency,quant=fp8");
  const auto blackwell = parse_selection(c, "hw=b200,strategy=low-latency,quant=fp8");
  EXPECT_EQ(blackwell->options.at(3), "fp8-trtllm");
  EXPECT_EQ(to_string(c, *parse_selection(c, "hw=b200,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang")),
            "hw=b200,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang");
}

TEST(Selection, PerHardwareDefaultCases) {
  const Catalog c = parsed(replaced(text_of(k_mini_path), "    default: bf16\n",
                                    "    default: [{when: {hw: b200}, then: fp8}, {else: bf16}]\n"));
  EXPECT_EQ(parse_selection(c, "hw=b200,quant=fp8")->options.at(2), "fp8");
  EXPECT_EQ(parse_selection(c, "hw=h100,quant=fp8")->options.at(2), "bf16");
  // fp8 KV is disabled with NVFP4 weights: the b200 default moves to the first usable option.
  EXPECT_EQ(parse_selection(c, "hw=b200,quant=nvfp4")->options.at(2), "bf16");
  EXPECT_EQ(to_string(c, *parse_selection(c, "hw=h100,quant=fp8,kv=bf16")), "hw=h100,quant=fp8");
}
