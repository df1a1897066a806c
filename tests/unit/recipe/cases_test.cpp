#include "servebench/recipe/cases.hpp"

#include <gtest/gtest.h>

#include "servebench/util/yaml_file.hpp"

using namespace servebench::recipe;

namespace {

YAML::Node node_of(const std::string& yaml) {
  auto doc = servebench::util::load_yaml_string(yaml, "c.yaml");
  EXPECT_TRUE(doc) << doc.error().message;
  return doc->root["v"];
}

// Cases parsed from `yaml`, with dim "hw" at index 0 resolved by hand.
template <class T>
T resolved(T cases) {
  for (auto& c : cases.cases) {
    for (auto& cond : c.when) cond.dim_index = 0;
  }
  return cases;
}

}  // namespace

TEST(Cases, EntryListsFlattenNestedListsFromAnchors) {
  auto doc = servebench::util::load_yaml_string("a: &a [--x 1, --y]\nv: [--m, *a, [--z]]\n", "c.yaml");
  ASSERT_TRUE(doc);
  const auto e = parse_entries("c.yaml", doc->root["v"], "flags");
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(texts(*e), (std::vector<std::string>{"--m", "--x 1", "--y", "--z"}));
  EXPECT_EQ(e->at(1).where, "c.yaml:1:8");  // an aliased entry keeps its anchor's position
}

TEST(Cases, PlainValueIsOneCaseThatAlwaysHolds) {
  const auto c = parse_text_cases("c.yaml", node_of("v: verified\n"), "badge");
  ASSERT_TRUE(c);
  const std::vector<std::string> any{"b200"};
  EXPECT_EQ(*c->pick(any), "verified");
  EXPECT_TRUE(parse_text_cases("c.yaml", node_of("w: 1\n"), "badge")->empty());
}

TEST(Cases, FirstCaseThatHoldsWinsElseIsTheFallback) {
  const auto c = parse_entry_cases("c.yaml", node_of("v:\n  - {when: {hw: [h100, h200]}, then: [--a]}\n  - {else: [--b, --c]}\n"), "flags");
  ASSERT_TRUE(c) << c.error().message;
  const auto cases = resolved(*c);
  const std::vector<std::string> hopper{"h100"}, blackwell{"b200"};
  EXPECT_EQ(texts(*cases.pick(hopper)), (std::vector<std::string>{"--a"}));
  EXPECT_EQ(texts(*cases.pick(blackwell)), (std::vector<std::string>{"--b", "--c"}));
  const auto none = resolved(*parse_text_cases("c.yaml", node_of("v: [{when: {hw: {not: [b200]}}, then: x}]\n"), "badge"));
  EXPECT_EQ(none.pick(blackwell), nullptr);
  EXPECT_EQ(*none.pick(hopper), "x");
}

TEST(Cases, MalformedCasesNamePosition) {
  EXPECT_EQ(parse_entry_cases("c.yaml", node_of("v: [{when: {hw: h1}, then: [--a]}, --b]\n"), "flags").error().message,
            "c.yaml:1:36: flags mixes plain items and {when, then} cases");
  EXPECT_EQ(parse_text_cases("c.yaml", node_of("v: [{when: {hw: h1}}]\n"), "badge").error().message,
            "c.yaml:1:5: badge case must be {when, then} or {else}");
  EXPECT_EQ(parse_entries("c.yaml", node_of("v: [--a, {x: 1}]\n"), "flags").error().message,
            "c.yaml:1:10: flags items must be non-empty text (or lists of text)");
}
