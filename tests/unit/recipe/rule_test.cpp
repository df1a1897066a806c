#include "servebench/recipe/rule.hpp"

#include <gtest/gtest.h>

#include "servebench/util/yaml_file.hpp"

using namespace servebench::recipe;

namespace {

servebench::util::Result<std::vector<Rule>> rules_of(const std::string& yaml) {
  auto doc = servebench::util::load_yaml_string(yaml, "r.yaml");
  EXPECT_TRUE(doc);
  return parse_rules("r.yaml", doc->root["disable"], "rule");
}

}  // namespace

TEST(Rule, ListAndSingleMappingForms) {
  auto list = rules_of("disable:\n  - {when: {hw: [h100, h200]}, reason: Blackwell only}\n  - {when: {quant: fp8}, reason: r2}\n");
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ(list->at(0).when.at(0).values, (std::vector<std::string>{"h100", "h200"}));
  EXPECT_EQ(list->at(1).when.at(0).values, (std::vector<std::string>{"fp8"}));  // a scalar is a one-element list
  auto single = rules_of("disable: {when: {hw: [h100]}, reason: one}\n");
  ASSERT_TRUE(single);
  EXPECT_EQ(single->size(), 1u);
  EXPECT_TRUE(rules_of("other: 1\n")->empty());
}

TEST(Rule, MalformedRulesNamePosition) {
  EXPECT_EQ(rules_of("disable:\n  - {when: {hw: [h100]}}\n").error().message, "r.yaml:2:5: rule needs 'reason'");
  EXPECT_EQ(rules_of("disable:\n  - {when: {}, reason: x}\n").error().message,
            "r.yaml:2:12: rule needs 'when': a mapping of dimension to option ids");
  EXPECT_EQ(rules_of("disable:\n  - {when: {hw: []}, reason: x}\n").error().message,
            "r.yaml:2:17: rule.when.hw must be a non-empty list of option ids");
  EXPECT_TRUE(rules_of("disable:\n  - {when: {hw: [h1]}, reason: x, because: y}\n").error().message.find("unknown key 'because'") !=
              std::string::npos);
}

TEST(Rule, AppliesWhenEveryConditionHolds) {
  Rule r{{{"hw", 0, {"h100", "h200"}, ""}, {"quant", 1, {"nvfp4"}, ""}}, "reason", ""};
  const std::vector<std::string> hopper_nvfp4{"h100", "nvfp4"}, hopper_fp8{"h200", "fp8"}, blackwell{"b200", "nvfp4"};
  EXPECT_TRUE(rule_applies(r, hopper_nvfp4));
  EXPECT_FALSE(rule_applies(r, hopper_fp8));
  EXPECT_FALSE(rule_applies(r, blackwell));
}

TEST(Rule, NotListHoldsForEveryOtherOption) {
  auto rules = rules_of("disable: {when: {hw: {not: [gb300]}}, reason: DCP is validated on GB300 only}\n");
  ASSERT_TRUE(rules) << rules.error().message;
  const RuleCondition& c = rules->at(0).when.at(0);
  EXPECT_TRUE(c.negated);
  const std::vector<std::string> gb300{"gb300"}, b200{"b200"};
  EXPECT_FALSE(rule_applies(rules->at(0), gb300));
  EXPECT_TRUE(rule_applies(rules->at(0), b200));
  EXPECT_EQ(rules_of("disable: {when: {hw: {none: [a]}}, reason: x}\n").error().message,
            "r.yaml:1:22: rule.when.hw must be option ids or {not: [option ids]}");
}

TEST(Rule, WithoutWhenAlwaysApplies) {
  auto rules = rules_of("disable: {reason: retired}\n");
  ASSERT_TRUE(rules) << rules.error().message;
  const std::vector<std::string> any{"b200"};
  EXPECT_TRUE(rule_applies(rules->at(0), any));
}
