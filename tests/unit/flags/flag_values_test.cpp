#include "servebench/flags/flag_values.hpp"

#include <gtest/gtest.h>

#include "servebench/flags/flag_list.hpp"

namespace servebench::flags {
namespace {

using Kind = ValueProblem::Kind;

std::optional<std::string> problem(const FlagSpec& spec, std::optional<std::string> value) {
  auto p = value_problem(spec, value);
  return p ? std::optional<std::string>(p->message) : std::nullopt;
}

TEST(FlagValues, TypesOfTheFlagList) {
  const FlagSpec tp = spec_of({"--tp-size", "", "yes", "int", "", "1"});
  EXPECT_FALSE(problem(tp, "8"));
  EXPECT_EQ(problem(tp, "four"), "--tp-size takes an integer, got 'four'");
  EXPECT_EQ(value_problem(tp, "four")->kind, Kind::type);
  const FlagSpec context = spec_of({"--context-length", "", "yes", "int:human_readable_int", "", "None"});
  EXPECT_FALSE(problem(context, "128k"));
  EXPECT_EQ(problem(spec_of({"--m", "", "yes", "float", "", "None"}), "0.x"), "--m takes a number, got '0.x'");
  EXPECT_FALSE(problem(spec_of({"--j", "", "yes", "json", "", "None"}), "{\"a\": 1}"));
  EXPECT_EQ(problem(spec_of({"--j", "", "yes", "json", "", "None"}), "{a}"), "--j takes JSON, got '{a}'");
  EXPECT_EQ(problem(spec_of({"--bs", "", "yes", "list[int]", "", "None"}), "1 2 x"), "--bs takes an integer, got 'x'");
  EXPECT_EQ(problem(spec_of({"--s", "", "no", "bool", "", "False"}), "1"), "--s is a switch and takes no value, got '1'");
}

TEST(FlagValues, ChoicesUnlessTheParserComputesThem) {
  const FlagSpec kv = spec_of({"--kv-cache-dtype", "", "yes", "str", "auto|fp8_e5m2|fp8_e4m3|bfloat16", "auto"});
  EXPECT_FALSE(problem(kv, "fp8_e4m3"));
  EXPECT_EQ(problem(kv, "fp8_e4m4"), "--kv-cache-dtype 'fp8_e4m4' is not one of: auto, fp8_e5m2, fp8_e4m3, bfloat16");
  EXPECT_EQ(value_problem(kv, "fp8_e4m4")->kind, Kind::choice);
  EXPECT_FALSE(problem(spec_of({"--p", "", "yes", "str", "auto|choices=X.keys()", "None"}), "glm45"));
}

TEST(FlagValues, Ranges) {
  FlagSpec mem = spec_of({"--mem-fraction-static", "", "yes", "float", "", "None"});
  mem.range = ValueRange{0.0, 1.0, true, false, "a fraction of the GPU memory"};
  EXPECT_FALSE(problem(mem, "0.85"));
  EXPECT_FALSE(problem(mem, "1"));
  EXPECT_EQ(problem(mem, "7.0"), "--mem-fraction-static 7.0 is outside (0, 1]: a fraction of the GPU memory");
  EXPECT_EQ(value_problem(mem, "0")->kind, Kind::range);
  EXPECT_EQ(to_string(ValueRange{1.0, std::nullopt, false, false, ""}), "[1, +inf)");
}

}  // namespace
}  // namespace servebench::flags
