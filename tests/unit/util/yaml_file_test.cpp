#include "servebench/util/yaml_file.hpp"

#include <gtest/gtest.h>

using namespace servebench::util;

TEST(YamlFile, SyntaxErrorNamesLineAndColumn) {
  const auto r = load_yaml_string("a: 1\nb: [1, 2\n", "spec.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_TRUE(r.error().message.starts_with("spec.yaml:")) << r.error().message;
}

TEST(YamlFile, DuplicateKeyIsAnErrorAtItsSecondPosition) {
  const auto r = load_yaml_string("name: a\nscenarios:\n  - {isl: 1, osl: 2, isl: 3}\n", "c.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, "c.yaml:3:22: duplicate key 'isl' (first at line 3, column 6)");
  const auto top = load_yaml_string("name: a\nmodel: m\nname: b\n", "c.yaml");
  ASSERT_FALSE(top);
  EXPECT_EQ(top.error().message, "c.yaml:3:1: duplicate key 'name' (first at line 1, column 1)");
  EXPECT_TRUE(load_yaml_string("a: {x: 1}\nb: {x: 1}\n", "c.yaml"));  // same key in two mappings is fine
}

TEST(YamlFile, NestingBeyondTheLimitIsAnErrorNotAStackOverflow) {
  // The duplicate-key walk recursed once per level with no bound; a fuzzed catalog overflowed the
  // stack (fuzz/regressions/recipe_catalog/). 300 levels of flow lists parse, then are refused.
  const std::string deep = std::string(300, '[') + std::string(300, ']') + "\n";
  const auto r = load_yaml_string(deep, "deep.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("deep.yaml:1:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("nested deeper than 256 levels"), std::string::npos) << r.error().message;
  const std::string ok = std::string(100, '[') + std::string(100, ']') + "\n";
  EXPECT_TRUE(load_yaml_string(ok, "ok.yaml"));
  // An alias inside its own anchor: an error either way, never a crash.
  EXPECT_FALSE(load_yaml_string("a: &x [1, *x]\n", "self.yaml"));
}

TEST(YamlMap, UnknownKeyIsAnErrorAtItsPosition) {
  const auto doc = load_yaml_string("name: x\nconcurency: [1]\n", "c.yaml");
  ASSERT_TRUE(doc);
  auto m = YamlMap::of(doc->file, doc->root, "scenario");
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->required_string("name"));
  (void)m->int_list("concurrency");
  const auto r = m->finish();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "c.yaml:2:1: unknown key 'concurency' in scenario; expected one of: concurrency, name");
}

TEST(YamlMap, WrongTypeNamesKeyAndValue) {
  const auto doc = load_yaml_string("isl: lots\n", "c.yaml");
  auto m = YamlMap::of(doc->file, doc->root, "scenario");
  const auto r = m->required_int("isl");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "c.yaml:1:6: scenario.isl must be an integer, got 'lots'");
}

TEST(YamlMap, MissingRequiredKey) {
  const auto doc = load_yaml_string("a: 1\n", "c.yaml");
  auto m = YamlMap::of(doc->file, doc->root, "arm");
  const auto r = m->required_string("name");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("arm needs 'name'"), std::string::npos);
}

TEST(YamlMap, IntListAcceptsScalarAndList) {
  const auto doc = load_yaml_string("a: 4\nb: [1, 8, 16]\nc: [1, x]\n", "c.yaml");
  auto m = YamlMap::of(doc->file, doc->root, "s");
  EXPECT_EQ(*m->int_list("a"), std::vector<std::int64_t>{4});
  EXPECT_EQ(*m->int_list("b"), (std::vector<std::int64_t>{1, 8, 16}));
  const auto bad = m->int_list("c");
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.error().message.starts_with("c.yaml:3:8:")) << bad.error().message;
}

TEST(YamlMap, NotAMapping) {
  const auto doc = load_yaml_string("- 1\n- 2\n", "c.yaml");
  EXPECT_FALSE(YamlMap::of(doc->file, doc->root, "campaign"));
}
