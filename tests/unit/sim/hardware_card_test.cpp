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
  EXPECT_DOUBLE_EQ(rtx->tensor_flops(1), 936e12);
  EXPECT_DOUBLE_EQ(rtx->tensor_flops(2), 468e12);
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
