#include "servebench/flags/flag_list.hpp"

#include <gtest/gtest.h>

namespace servebench::flags {
namespace {

TEST(FlagList, GeneratedFromTheTsvAtBuildTime) {
  const auto rows = generated_flag_list("sglang.tsv");
  ASSERT_EQ(rows.size(), 497u);
  EXPECT_EQ(rows.front().flag, "--model-path");
  EXPECT_EQ(rows.front().aliases, "--model");
  EXPECT_TRUE(generated_flag_list("nope.tsv").empty());
}

TEST(FlagList, RowsBecomeSpecs) {
  const FlagSpec ep = spec_of({"--ep-size", "--expert-parallel-size,--ep", "yes", "int", "", "1"});
  EXPECT_EQ(ep.aliases, (std::vector<std::string>{"--expert-parallel-size", "--ep"}));
  EXPECT_EQ(ep.arity, FlagArity::one);
  EXPECT_EQ(ep.default_value, "1");
  const FlagSpec sw = spec_of({"--enable-x", "", "no", "bool", "", "False"});
  EXPECT_EQ(sw.arity, FlagArity::none);
  EXPECT_FALSE(sw.default_value);  // a switch's default is its absence
  EXPECT_EQ(spec_of({"--bs", "", "yes", "list[int]", "", "None"}).arity, FlagArity::many);
  EXPECT_FALSE(spec_of({"--bs", "", "yes", "list[int]", "", "None"}).default_value);
  const FlagSpec parser = spec_of({"--reasoning-parser", "", "yes", "str", "auto|choices=ReasoningParser.DetectorMap.keys()", "None"});
  EXPECT_EQ(parser.choices, (std::vector<std::string>{"auto"}));
  EXPECT_TRUE(parser.choices_computed);
}

}  // namespace
}  // namespace servebench::flags
