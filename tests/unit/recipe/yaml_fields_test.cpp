#include "servebench/recipe/yaml_fields.hpp"

#include <gtest/gtest.h>

using namespace servebench::recipe;

namespace {

YamlFields fields(const std::string& yaml) {
  static std::vector<servebench::util::YamlDoc> keep;  // nodes must outlive the view
  keep.push_back(*servebench::util::load_yaml_string(yaml, "f.yaml"));
  return *YamlFields::of("f.yaml", keep.back().root, "thing");
}

}  // namespace

TEST(YamlFields, ValuesAndFallbacks) {
  auto f = fields("a: x\nn: 3\nl: [p, q]\n");
  EXPECT_EQ(f.string("a"), "x");
  EXPECT_EQ(f.string("missing", "dflt"), "dflt");
  EXPECT_EQ(f.integer("n", 0), 3);
  EXPECT_EQ(f.strings("l"), (std::vector<std::string>{"p", "q"}));
  EXPECT_FALSE(f.optional_integer("none"));
  EXPECT_TRUE(f.finish());
}

TEST(YamlFields, FirstErrorWins) {
  auto f = fields("n: lots\nm: many\n");
  EXPECT_EQ(f.integer("n", 7), 7);
  EXPECT_EQ(f.integer("m", 8), 8);
  EXPECT_TRUE(f.failed());
  const auto r = f.finish();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "f.yaml:1:4: thing.n must be an integer, got 'lots'");
}

TEST(YamlFields, UnreadKeyFailsFinish) {
  auto f = fields("a: x\nb: y\n");
  (void)f.string("a");
  const auto r = f.finish();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("unknown key 'b' in thing"), std::string::npos);
}

TEST(YamlFields, RequiredStringMissing) {
  auto f = fields("a: x\n");
  EXPECT_EQ(f.required_string("id"), "");
  EXPECT_NE(f.finish().error().message.find("thing needs 'id'"), std::string::npos);
}
