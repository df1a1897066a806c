#include "servebench/sim/hardware_card.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

TEST(HardwareCard, LoadsWithEfficiencyDefaults) {
  const auto h200 = load_hardware_card("h200");
  ASSERT_TRUE(h200) << h200.error().message;
  EXPECT_DOUBLE_EQ(h200->hbm_tbs, 4.8);
  EXPECT_DOUBLE_EQ(h200->efficiency.bandwidth, 0.8);
  EXPECT_DOUBLE_EQ(h200->link_bytes_per_s(), 450e9);  // NVLink 900 GB/s bidirectional
}

TEST(HardwareCard, NoNvlinkMeansPcie) {
  const auto rtx = load_hardware_card("rtx-pro-6000");
  ASSERT_TRUE(rtx);
  EXPECT_DOUBLE_EQ(rtx->link_bytes_per_s(), 64e9);
  EXPECT_DOUBLE_EQ(rtx->tensor_flops(GemmDtype::fp8), 936e12);
  EXPECT_DOUBLE_EQ(rtx->tensor_flops(GemmDtype::bf16), 468e12);
  EXPECT_DOUBLE_EQ(rtx->tensor_flops(GemmDtype::fp4), 1871e12);
}

TEST(HardwareCard, Fp4FallsBackToBf16WithoutFp4Units) {
  const auto h100 = load_hardware_card("h100");
  ASSERT_TRUE(h100);
  EXPECT_DOUBLE_EQ(h100->tensor_flops(GemmDtype::fp4), 989e12);  // Hopper dequantizes FP4 weights
}

TEST(HardwareCard, B200AndB300DifferAsTheirSpecSheets) {
  const auto b200 = load_hardware_card("b200");
  const auto b300 = load_hardware_card("b300");
  ASSERT_TRUE(b200 && b300);
  EXPECT_EQ(b200->sm, 100);
  EXPECT_EQ(b300->sm, 103);
  EXPECT_DOUBLE_EQ(b200->memory_gb, 180);
  EXPECT_DOUBLE_EQ(b300->memory_gb, 288);
  EXPECT_DOUBLE_EQ(b200->tensor_flops(GemmDtype::fp4), 9000e12);
  EXPECT_DOUBLE_EQ(b300->tensor_flops(GemmDtype::fp4), 13500e12);  // Blackwell Ultra: 1.5x dense FP4
  EXPECT_DOUBLE_EQ(b300->tensor_flops(GemmDtype::fp8), b200->tensor_flops(GemmDtype::fp8));
}

TEST(HardwareCard, AnOverrideMergesByName) {
  const std::string base =
      "gpus:\n  - {name: a, sm: 90, memory_gb: 80, hbm_tbs: 3, bf16_tflops: 1, fp8_tflops: 2, nvlink_gbs: 900, "
      "pcie_gbs: 64, efficiency: {bandwidth: 0.8, mfu: 0.55, link: 0.83, step_overhead_us: 400, eager_layer_us: 60, "
      "all_reduce_base_us: 8, hop_latency_us: 1.5, runtime_reserve_gib: 1.0}}\n"
      "  - {name: b, sm: 100, memory_gb: 180, hbm_tbs: 8, bf16_tflops: 2, fp8_tflops: 4, nvlink_gbs: 1800, pcie_gbs: 64}\n";
  const std::string over =
      "gpus:\n  - {name: a, hbm_tbs: 3.5, efficiency: {mfu: 0.4}}\n"
      "  - {name: c, sm: 120, memory_gb: 96, hbm_tbs: 1.8, bf16_tflops: 1, fp8_tflops: 2, nvlink_gbs: 0, pcie_gbs: 64}\n";
  const auto cards = merge_hardware_cards(base, "base.yaml", over, "mine.yaml");
  ASSERT_TRUE(cards) << cards.error().message;
  ASSERT_EQ(cards->size(), 3u);
  EXPECT_EQ((*cards)[0].name, "a");
  EXPECT_DOUBLE_EQ((*cards)[0].hbm_tbs, 3.5);             // replaced
  EXPECT_DOUBLE_EQ((*cards)[0].memory_gb, 80);            // kept
  EXPECT_DOUBLE_EQ((*cards)[0].efficiency.mfu, 0.4);      // replaced key by key
  EXPECT_DOUBLE_EQ((*cards)[0].efficiency.link, 0.83);    // kept
  EXPECT_EQ((*cards)[1].name, "b");                       // untouched
  EXPECT_EQ((*cards)[2].name, "c");                       // added
  const auto bad = merge_hardware_cards(base, "base.yaml", "gpus:\n  - {name: a, clock: 3}\n", "mine.yaml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("clock"), std::string::npos) << bad.error().message;
}

TEST(HardwareCard, UnknownNameListsKnownCards) {
  const auto r = load_hardware_card("a100");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("rtx-pro-6000"), std::string::npos);
}

TEST(HardwareCard, UnknownKeyIsAnError) {
  const auto r = parse_hardware_cards(
      "gpus:\n  - {name: x, sm: 90, memory_gb: 80, hbm_tbs: 3, bf16_tflops: 1, fp8_tflops: 2, nvlink_gbs: 0, "
      "pcie_gbs: 64, clock: 3}\n",
      "hw.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("clock"), std::string::npos);
}

TEST(HardwareCard, ADocumentThatIsNotAMappingIsAnErrorNotAThrow) {
  // A scalar or a list at the top, or a mapping without the list (found by fuzzing the card
  // loader), threw out of yaml-cpp and ended the process.
  for (const char* text : {"just words\n", "- a\n- b\n", "42\n", "models: []\n"}) {
    const auto r = parse_hardware_cards(text, "hw.yaml");
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find("hw.yaml:1:1: needs a 'gpus' list"), std::string::npos) << r.error().message;
    const auto merged = merge_hardware_cards("gpus: []\n", "base.yaml", text, "mine.yaml");
    ASSERT_FALSE(merged) << text;
    EXPECT_NE(merged.error().message.find("mine.yaml:1:1: needs a 'gpus' list"), std::string::npos)
        << merged.error().message;
  }
}

TEST(HardwareCard, AnAbsurdTimeIsAnErrorNamingTheKeyNotAnOverflow) {
  // step_overhead_us 2.2e26 (found by fuzzing the card loader) was cast to integer nanoseconds:
  // undefined behaviour. A card's times must lie in [0, 1,000 s].
  const std::string card =
      "gpus:\n  - {name: x, sm: 90, memory_gb: 80, hbm_tbs: 3, bf16_tflops: 1, fp8_tflops: 2, nvlink_gbs: 0, "
      "pcie_gbs: 64,\n     efficiency: {bandwidth: 0.8, mfu: 0.5, link: 0.8, step_overhead_us: 2.22222e26, "
      "eager_layer_us: 60, all_reduce_base_us: 8, hop_latency_us: 1.5, runtime_reserve_gib: 1}}\n";
  const auto r = parse_hardware_cards(card, "hw.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("hw.yaml:3:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("step_overhead_us must be a time in [0, 1000000000] microseconds"),
            std::string::npos)
      << r.error().message;
  std::string negative = card;
  negative.replace(negative.find("2.22222e26"), 10, "-1");
  EXPECT_FALSE(parse_hardware_cards(negative, "hw.yaml"));
  std::string fine = card;
  fine.replace(fine.find("2.22222e26"), 10, "400");
  const auto ok = parse_hardware_cards(fine, "hw.yaml");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ((*ok)[0].efficiency.step_overhead, std::chrono::microseconds(400));
}
