#include "servebench/campaign/word_problems.hpp"

#include <set>

#include <gtest/gtest.h>

#include "servebench/sim/oracle.hpp"

namespace servebench::campaign {
namespace {

TEST(WordProblems, TheSimulatorOracleSolvesEveryProblem) {
  // The gate's end-to-end path rests on this: the generator writes the oracle's grammar exactly.
  const auto problems = make_word_problems(200, 7);
  ASSERT_EQ(problems.size(), 200u);
  for (const auto& p : problems) {
    const auto solved = sim::solve_word_problem(std::string(word_problem_instruction()) + p.text);
    ASSERT_TRUE(solved.has_value()) << p.text;
    EXPECT_EQ(*solved, p.answer) << p.text;
  }
}

TEST(WordProblems, AnswersArePositiveAndDivisionsEven) {
  for (const auto& p : make_word_problems(100, 3)) {
    EXPECT_GT(p.answer, 0) << p.text;
    EXPECT_EQ(p.text.find("  "), std::string::npos) << p.text;
  }
}

TEST(WordProblems, DeterministicPerSeedAndVaried) {
  const auto a = make_word_problems(8, 11);
  const auto b = make_word_problems(8, 11);
  const auto c = make_word_problems(8, 12);
  std::set<std::string> texts;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text);
    texts.insert(a[i].text);
  }
  EXPECT_EQ(texts.size(), 8u);
  EXPECT_NE(a[0].text, c[0].text);
}

TEST(WordProblems, TheInstructionPosesNoProblemOfItsOwn) {
  EXPECT_FALSE(sim::solve_word_problem(word_problem_instruction()).has_value());
}

TEST(ParseAnswer, TakesTheLastInteger) {
  EXPECT_EQ(parse_answer("The answer is 42."), 42);
  EXPECT_EQ(parse_answer("12 + 3 = 15, so the answer is 15"), 15);
  EXPECT_EQ(parse_answer("#### 1,234"), 1234);
  EXPECT_EQ(parse_answer("It drops to -7."), -7);
  EXPECT_EQ(parse_answer("values 1,23 and 5"), 5);
  EXPECT_EQ(parse_answer("1,2345"), 2345);  // not a thousands group: two numbers
  EXPECT_FALSE(parse_answer("no digits here").has_value());
  EXPECT_FALSE(parse_answer("").has_value());
  EXPECT_EQ(parse_answer("99999999999999999999999 then 3"), 3);  // an overflowing number is not an answer
}

}  // namespace
}  // namespace servebench::campaign
