#include "servebench/campaign/spec_fields.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

SpecFields fields(const std::string& yaml) {
  auto doc = util::load_yaml_string(yaml, "f.yaml");
  EXPECT_TRUE(doc);
  auto f = SpecFields::of("f.yaml", doc->root, "block");
  EXPECT_TRUE(f);
  return std::move(*f);
}

TEST(SpecFields, ValuesAndFallbacks) {
  auto f = fields("{a: x, n: 3, d: 0.5, b: true, l: [1, 2], z: null}");
  EXPECT_EQ(f.string("a"), "x");
  EXPECT_EQ(f.string("missing", "fb"), "fb");
  EXPECT_EQ(f.integer("n", 0), 3);
  EXPECT_EQ(f.number("d", 0), 0.5);
  EXPECT_TRUE(f.boolean("b", false));
  EXPECT_EQ(f.integers("l"), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(f.nullable_number("z", 0.01), std::nullopt);
  EXPECT_EQ(f.nullable_number("absent", 0.01), 0.01);
  EXPECT_TRUE(f.finish());
}

TEST(SpecFields, KeepsTheFirstError) {
  auto f = fields("{n: x, m: y}");
  EXPECT_EQ(f.integer("n", 7), 7);
  EXPECT_EQ(f.integer("m", 8), 8);
  EXPECT_TRUE(f.failed());
  EXPECT_EQ(f.finish().error().message, "f.yaml:1:5: block.n must be an integer, got 'x'");
}

TEST(SpecFields, UnknownKeysFailAtFinish) {
  auto f = fields("{known: 1, typo: 2}");
  (void)f.integer("known", 0);
  EXPECT_EQ(f.finish().error().message, "f.yaml:1:12: unknown key 'typo' in block; expected one of: known");
}

TEST(SpecFields, RequiredStringMustNotBeEmpty) {
  auto f = fields("{name: ''}");
  EXPECT_EQ(f.required_string("name"), "");
  EXPECT_EQ(f.finish().error().message, "f.yaml:1:8: block.name must not be empty");
}

}  // namespace
}  // namespace servebench::campaign
