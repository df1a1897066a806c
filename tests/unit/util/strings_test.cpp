#include "servebench/util/strings.hpp"

#include <gtest/gtest.h>

using namespace servebench::util;

TEST(Strings, SplitKeepsEmptyFields) {
  const auto parts = split("a,,b", ',');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], "");
  EXPECT_EQ(parts[2], "b");
}

TEST(Strings, ParseIntRejectsTrailingGarbage) {
  EXPECT_EQ(*parse_int(" 42 ", "n"), 42);
  const auto bad = parse_int("42x", "--num-prompts");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::bad_input);
  EXPECT_NE(bad.error().message.find("--num-prompts"), std::string::npos);
}

TEST(Strings, ParseDoubleAcceptsInf) {
  EXPECT_TRUE(std::isinf(*parse_double("inf", "rate")));
  EXPECT_DOUBLE_EQ(*parse_double("2.5", "rate"), 2.5);
  EXPECT_FALSE(parse_double("", "rate"));
}

TEST(Strings, ParseBool) {
  EXPECT_TRUE(*parse_bool("Yes", "x"));
  EXPECT_FALSE(*parse_bool("off", "x"));
  EXPECT_FALSE(parse_bool("maybe", "x"));
}

TEST(Strings, ShellSplitHandlesQuotesAndEscapes) {
  const auto words = shell_split(R"(serve --a 'x y' "q \"z\"" back\ slash  )");
  ASSERT_TRUE(words);
  const std::vector<std::string> want{"serve", "--a", "x y", "q \"z\"", "back slash"};
  EXPECT_EQ(*words, want);
}

TEST(Strings, ShellSplitRejectsUnterminatedQuote) { EXPECT_FALSE(shell_split("a 'b")); }

TEST(Strings, ShellQuoteRoundTrips) {
  for (const std::string w : {"plain", "two words", "it's", "", "{port}"}) {
    const auto back = shell_split(shell_quote(w));
    ASSERT_TRUE(back);
    if (w.empty()) {
      ASSERT_EQ(back->size(), 1u);
      EXPECT_EQ((*back)[0], "");
    } else {
      EXPECT_EQ(*back, std::vector<std::string>{w});
    }
  }
}

TEST(Strings, ReplaceAll) { EXPECT_EQ(replace_all("a{p}b{p}", "{p}", "80"), "a80b80"); }
