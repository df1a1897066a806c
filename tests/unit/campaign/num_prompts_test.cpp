#include "servebench/campaign/num_prompts.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

std::int64_t eval(std::string_view text, std::int64_t c) {
  auto e = NumPromptsExpr::parse(text);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  auto v = e->eval(c);
  EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
  return v.value_or(-1);
}

TEST(NumPromptsExpr, BriefRuleIsMaxOfEightAndTwiceC) {
  EXPECT_EQ(eval("max(8, 2*c)", 1), 8);
  EXPECT_EQ(eval("max(8, 2*c)", 4), 8);
  EXPECT_EQ(eval("max(8, 2*c)", 5), 10);
  EXPECT_EQ(eval("max(8, 2*c)", 64), 128);
}

TEST(NumPromptsExpr, PrecedenceAndParentheses) {
  EXPECT_EQ(eval("2 + 3 * c", 4), 14);
  EXPECT_EQ(eval("(2 + 3) * c", 4), 20);
  EXPECT_EQ(eval("10 - 2 - 3", 1), 5);  // left associative
  EXPECT_EQ(eval("c * 10 / 4", 3), 7);   // 30 / 4, integer division
  EXPECT_EQ(eval("-c + 20", 5), 15);
  EXPECT_EQ(eval("--c", 6), 6);
}

TEST(NumPromptsExpr, MaxAndMinTakeSeveralArguments) {
  EXPECT_EQ(eval("min(100, max(16, 5*c), 3*c + 40)", 1), 16);
  EXPECT_EQ(eval("min(100, max(16, 5*c), 3*c + 40)", 10), 50);
  EXPECT_EQ(eval("min(100, max(16, 5*c), 3*c + 40)", 40), 100);
  EXPECT_EQ(eval("max(1,2,3,c)", 9), 9);
}

TEST(NumPromptsExpr, KeepsItsText) {
  auto e = NumPromptsExpr::parse("max(8, 2*c)");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->text(), "max(8, 2*c)");
}

TEST(NumPromptsExpr, SyntaxErrorsNameTheColumn) {
  const auto message = [](std::string_view text) {
    auto e = NumPromptsExpr::parse(text);
    return e ? std::string("parsed") : e.error().message;
  };
  EXPECT_EQ(message("max(8, 2*c"), "column 11: expected ',' or ')'");
  EXPECT_EQ(message("2 * x"), "column 5: unknown name 'x'; use c, integers, + - * /, max(...) and min(...)");
  EXPECT_EQ(message("max(8)"), "column 7: max() needs at least two arguments");
  EXPECT_EQ(message("2 +"), "column 4: expression ends early");
  EXPECT_EQ(message("2c"), "column 2: unexpected 'c'");
  EXPECT_EQ(message("c ** 2"), "column 4: unexpected '*'");
  EXPECT_EQ(message("99999999999999999999"), "column 1: integer too large");
  EXPECT_EQ(message(""), "column 1: expression ends early");
  EXPECT_EQ(message("sqrt(c)"), "column 1: unknown name 'sqrt'; use c, integers, + - * /, max(...) and min(...)");
}

TEST(NumPromptsExpr, EvaluationErrors) {
  auto div = NumPromptsExpr::parse("16 / (c - 1)");
  ASSERT_TRUE(div);
  EXPECT_EQ(div->eval(1).error().message, "'16 / (c - 1)' divides by zero at c=1");
  EXPECT_EQ(*div->eval(3), 8);
  auto neg = NumPromptsExpr::parse("8 - c");
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->eval(8).error().message, "'8 - c' gives 0 prompts at c=8; it must be positive");
  auto big = NumPromptsExpr::parse("c * 9223372036854775807");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->eval(2).error().message, "'c * 9223372036854775807' overflows at c=2");
}

}  // namespace
}  // namespace servebench::campaign
