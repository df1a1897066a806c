#include "servebench/recipe/catalog.hpp"

#include <string>

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "servebench/util/file_io.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

std::string fixture_text() { return text_of(k_mini_path); }

// The fixture with one substring replaced, to plant a single mistake.
servebench::util::Result<Catalog> parse_with(const std::string& from, const std::string& to) {
  std::string text = fixture_text();
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  return try_parse(text, "mini.yaml");
}

}  // namespace

TEST(Catalog, ParsesDimsInOrderHardwareFirst) {
  auto c = try_parse(fixture_text(), "mini.yaml");
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_EQ(c->dims.size(), 4u);
  EXPECT_EQ(c->dims[0].id, "hw");
  EXPECT_EQ(c->dims[0].kind, DimKind::hardware);
  EXPECT_EQ(c->dims[1].id, "quant");
  EXPECT_EQ(c->dims[2].id, "kv");
  EXPECT_EQ(c->dims[2].default_option.cases.at(0).value, "bf16");
  EXPECT_EQ(c->key_dims(), 2u);
  EXPECT_EQ(c->dims[0].options[0].gpus_per_node, 8);
  ASSERT_EQ(c->cells.size(), 3u);
  EXPECT_EQ(c->cells[1].match, (std::vector<std::string>{"b200", "nvfp4"}));
  EXPECT_EQ(c->model.facts.moe_intermediate_size, 2048);
  EXPECT_EQ(c->benchmark.scenarios.at(0).concurrency, (std::vector<std::int64_t>{1, 16}));
}

TEST(Catalog, RuleDimsResolveToIndices) {
  auto c = try_parse(fixture_text(), "mini.yaml");
  ASSERT_TRUE(c);
  const Rule& rule = c->dims[2].options[1].disable.at(0);
  ASSERT_EQ(rule.when.size(), 2u);
  EXPECT_EQ(rule.when[0].dim_index, 0u);
  EXPECT_EQ(rule.when[1].dim_index, 1u);
  EXPECT_EQ(rule.reason, "fp8 KV is validated on Blackwell only");
}

TEST(Catalog, BuiltinPlaceholdersHaveDefaults) {
  auto c = try_parse(fixture_text(), "mini.yaml");
  ASSERT_TRUE(c);
  std::vector<std::string> names;
  for (const auto& p : c->placeholders) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"MODEL_NAME", "HOST_IP", "PORT", "REGION"}));
  EXPECT_EQ(c->placeholders[2].default_value, "30000");
}

TEST(Catalog, UnknownKeyNamesLineAndColumn) {
  auto c = parse_with("  - match: {hw: h100, quant: fp8}\n", "  - match: {hw: h100, quant: fp8}\n    nnode: 2\n");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_TRUE(c.error().message.starts_with("mini.yaml:49:5: unknown key 'nnode' in cell")) << c.error().message;
}

TEST(Catalog, MalformedYamlNamesPosition) {
  auto c = try_parse("schema: [servebench.catalog/1\n", "bad.yaml");
  ASSERT_FALSE(c);
  EXPECT_TRUE(c.error().message.starts_with("bad.yaml:")) << c.error().message;
}

TEST(Catalog, CellMustNameEveryKeyDim) {
  auto c = parse_with("match: {hw: h100, quant: fp8}", "match: {hw: h100}");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("cell match needs 'quant'"), std::string::npos) << c.error().message;
}

TEST(Catalog, CellMayNotMatchOnOverlay) {
  auto c = parse_with("match: {hw: h100, quant: fp8}", "match: {hw: h100, quant: fp8, kv: bf16}");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("'kv', which is not a hardware or match dimension"), std::string::npos);
}

TEST(Catalog, WrongSchemaIsRejected) {
  auto c = parse_with("servebench.catalog/1", "servebench.catalog/9");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("schema must be 'servebench.catalog/1'"), std::string::npos);
}

TEST(Catalog, ExampleCatalogLoads) {
  auto c = load_catalog(std::string(SERVEBENCH_SOURCE_DIR) + "/examples/catalogs/glm-5.3-flash.yaml");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->name, "glm-5.3-flash");
  EXPECT_EQ(c->cells.size(), 20u);  // 12 entries; a hardware list in `match` makes one cell per GPU
  EXPECT_EQ(c->launcher, "sglang serve");
}
