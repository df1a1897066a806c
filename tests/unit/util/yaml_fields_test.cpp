#include "servebench/util/yaml_fields.hpp"

#include <gtest/gtest.h>

namespace servebench::util {
namespace {

YamlFields fields(const std::string& yaml) {
  static std::vector<YamlDoc> keep;  // nodes must outlive the view
  keep.push_back(*load_yaml_string(yaml, "f.yaml"));
  return *YamlFields::of("f.yaml", keep.back().root, "block");
}

TEST(YamlFields, ValuesAndFallbacks) {
  auto f = fields("{a: x, n: 3, d: 0.5, b: true, l: [1, 2], s: [p, q], z: null}");
  EXPECT_EQ(f.string("a"), "x");
  EXPECT_EQ(f.string("missing", "fb"), "fb");
  EXPECT_EQ(f.integer("n", 0), 3);
  EXPECT_EQ(f.number("d", 0), 0.5);
  EXPECT_TRUE(f.boolean("b", false));
  EXPECT_EQ(f.integers("l"), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(f.strings("s"), (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(f.nullable_number("z", 0.01), std::nullopt);
  EXPECT_EQ(f.nullable_number("absent", 0.01), 0.01);
  EXPECT_FALSE(f.optional_integer("none"));
  EXPECT_TRUE(f.finish());
}

TEST(YamlFields, KeepsTheFirstError) {
  auto f = fields("{n: x, m: y}");
  EXPECT_EQ(f.integer("n", 7), 7);
  EXPECT_EQ(f.integer("m", 8), 8);
  EXPECT_TRUE(f.failed());
  EXPECT_EQ(f.finish().error().message, "f.yaml:1:5: block.n must be an integer, got 'x'");
}

TEST(YamlFields, UnknownKeysFailAtFinish) {
  auto f = fields("{known: 1, typo: 2}");
  (void)f.integer("known", 0);
  EXPECT_EQ(f.finish().error().message, "f.yaml:1:12: unknown key 'typo' in block; expected one of: known");
}

TEST(YamlFields, RequiredStringMustExistAndNotBeEmpty) {
  auto missing = fields("a: x\n");
  EXPECT_EQ(missing.required_string("id"), "");
  EXPECT_NE(missing.finish().error().message.find("block needs 'id'"), std::string::npos);
  auto empty = fields("{name: ''}");
  EXPECT_EQ(empty.required_string("name"), "");
  EXPECT_EQ(empty.finish().error().message, "f.yaml:1:8: block.name must not be empty");
}

}  // namespace
}  // namespace servebench::util
