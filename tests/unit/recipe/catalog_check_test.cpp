#include "servebench/recipe/catalog_check.hpp"

#include <string>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

using namespace servebench::recipe;

namespace {

const std::string k_fixture = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/mini.yaml";

CatalogData data() {
  static const auto render = load_render_facts();
  EXPECT_TRUE(render);
  return {{{"b200", "B200", "blackwell", 100}, {"h100", "H100", "hopper", 90}}, *render};
}

// The fixture with one substring replaced; parse_catalog runs check_catalog after reading.
servebench::util::Result<Catalog> parse_checked_with(const std::string& from, const std::string& to) {
  std::string text = *servebench::util::read_file(k_fixture);
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  return parse_catalog(text, "mini.yaml", data());
}

}  // namespace

TEST(CatalogCheck, RuleNamingUnknownOptionIsRejected) {
  auto c = parse_checked_with("when: {hw: [h100]}, reason: NVFP4", "when: {hw: [h110]}, reason: NVFP4");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("'h110' is not an option of 'hw'"), std::string::npos) << c.error().message;
  EXPECT_TRUE(c.error().message.starts_with("mini.yaml:19:")) << c.error().message;
}

TEST(CatalogCheck, RuleNamingUnknownDimIsRejected) {
  auto c = parse_checked_with("when: {hw: [h100], quant: [fp8]}", "when: {hw: [h100], quantization: [fp8]}");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("unknown dimension 'quantization'"), std::string::npos) << c.error().message;
}

TEST(CatalogCheck, UnknownHardwareListsKnownNames) {
  auto c = parse_checked_with("  - {name: h100, gpus_per_node: 8}\n",
                      "  - {name: h100, gpus_per_node: 8}\n  - {name: h300, gpus_per_node: 8}\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message,
            "mini.yaml:13:5: unknown hardware 'h300'; data/hardware.yaml has: b200, h100 (or declare vendor, family and, "
            "for NVIDIA, sm here)");
}

TEST(CatalogCheck, DuplicateCellIsRejected) {
  auto c = parse_checked_with("match: {hw: h100, quant: fp8}", "match: {hw: b200, quant: fp8}");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("a cell for b200/fp8 already exists"), std::string::npos) << c.error().message;
}

TEST(CatalogCheck, UndeclaredPlaceholderIsRejected) {
  auto c = parse_checked_with("--tp-size 8, \"--port {{PORT}}\"", "--tp-size 8, \"--port {{PROT}}\"");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("placeholder {{PROT}} is not declared"), std::string::npos) << c.error().message;
}

TEST(CatalogCheck, EnvEntryMustBeAssignment) {
  auto c = parse_checked_with("env: [SGLANG_KV_FP8=1]", "env: [SGLANG_KV_FP8]");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("env entry 'SGLANG_KV_FP8' must be NAME=value"), std::string::npos);
}

TEST(CatalogCheck, OverlayDefaultMustBeAnOption) {
  auto c = parse_checked_with("default: cell", "default: cel");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("default 'cel' of 'tp' is not one of its options"), std::string::npos);
}

TEST(CatalogCheck, ModelNamesKeyMustBeAnOption) {
  auto c = parse_checked_with("nvfp4: org/mini-NVFP4", "int4: org/mini-INT4");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("model.names key 'int4' matches no selection; keys are option ids joined by '|' as "
                                   "hw|quant, quant, hw, default"),
            std::string::npos)
      << c.error().message;
}
