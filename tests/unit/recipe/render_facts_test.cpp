#include "servebench/recipe/render_facts.hpp"

#include <gtest/gtest.h>

using namespace servebench::recipe;

TEST(RenderFacts, ShippedFileHasSglangAndVllmAndEveryVendor) {
  const auto f = load_render_facts();
  ASSERT_TRUE(f) << f.error().message;
  const EngineRendering* sglang = f->engine(servebench::flags::Dialect::sglang);
  ASSERT_NE(sglang, nullptr);
  EXPECT_EQ(sglang->command, "sglang serve");
  EXPECT_EQ(sglang->multi_node.flags.at(2), "--dist-init-addr {{NODE0_IP}}:20000");
  const EngineRendering* vllm = f->engine(servebench::flags::Dialect::vllm);
  ASSERT_NE(vllm, nullptr);
  EXPECT_EQ(vllm->multi_node.flags.at(2), "--master-addr {{NODE0_IP}}");
  EXPECT_EQ(f->engine(servebench::flags::Dialect::trtllm), nullptr);
  for (const char* v : {"nvidia", "amd", "npu"}) EXPECT_NE(f->vendor(v), nullptr) << v;
  EXPECT_FALSE(f->vendor("npu")->hf_cache);
  EXPECT_NE(f->fabric_for("dgx-spark"), nullptr);
}

TEST(RenderFacts, MalformedFileNamesPosition) {
  const auto f = parse_render_facts("engines:\n  sglang: {command: sglang serve}\ndocker: {hf_cache_mount: x}\n", "e.yaml");
  ASSERT_FALSE(f);
  EXPECT_TRUE(f.error().message.starts_with("e.yaml:2:11: ")) << f.error().message;
  const auto vendor = parse_render_facts("engines: {}\ndocker: {hf_cache_mount: x, vendors: {intel: {lines: [a]}}}\n", "e.yaml");
  ASSERT_FALSE(vendor);
  EXPECT_NE(vendor.error().message.find("vendor 'intel' must be nvidia, amd or npu"), std::string::npos) << vendor.error().message;
}
