#include "servebench/sim/oracle.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

TEST(Oracle, SolvesEverySentenceForm) {
  const char* text =
      "Tom has 12 apples. Tom buys 3 more apples. Tom finds 1 more apples. Tom gets 2 more apples. "
      "Tom receives 4 more apples. Tom gives away 5 apples. Tom loses 1 apples. Tom eats 2 apples. "
      "Tom sells 3 apples. Tom buys 2 boxes with 6 apples in each box. How many apples does Tom have now?";
  // 12 + 3 + 1 + 2 + 4 - 5 - 1 - 2 - 3 + 12 = 23
  EXPECT_EQ(solve_word_problem(text), 23);
}

TEST(Oracle, EachFriendQuestionDividesTheTotal) {
  EXPECT_EQ(solve_word_problem("Ana has 20 red marbles. Ana finds 4 more red marbles. Ana shares them equally "
                               "among 6 friends. How many red marbles does each friend get?"),
            4);
}

TEST(Oracle, AnswersTheLastQuestionAfterFewShotExamples) {
  const char* text =
      "Answer the question.\nQ: Sam has 3 pears. Sam buys 2 more pears. How many pears does Sam have now?\n"
      "A: The answer is 5.\nQ: Lee has 10 coins. Lee gives away 7 coins. How many coins does Lee have now?\nA:";
  EXPECT_EQ(solve_word_problem(text), 3);
}

TEST(Oracle, TextWithoutAProblemHasNoAnswer) {
  EXPECT_EQ(solve_word_problem(""), std::nullopt);
  EXPECT_EQ(solve_word_problem("The quick brown fox jumps over the lazy dog."), std::nullopt);
  // Operations and a question without a "has" sentence setting the total pose nothing.
  EXPECT_EQ(solve_word_problem("Tom buys 3 more apples. How many apples does Tom have now?"), std::nullopt);
  // A problem that is never asked has no answer yet.
  EXPECT_EQ(solve_word_problem("Tom has 3 apples. Tom buys 3 more apples."), std::nullopt);
}

TEST(Oracle, QuestionNeedsAQuestionMark) {
  EXPECT_EQ(solve_word_problem("Tom has 3 apples. How many apples does Tom have now."), std::nullopt);
}

TEST(Oracle, NamesAreCapitalisedAndNumbersAreDigits) {
  EXPECT_EQ(solve_word_problem("tom has 3 apples. How many apples does tom have now?"), std::nullopt);
  EXPECT_EQ(solve_word_problem("Tom has three apples. How many apples does Tom have now?"), std::nullopt);
  EXPECT_EQ(solve_word_problem("Tom has 0 apples. Tom gets 7 more apples. How many apples does Tom have now?"), 7);
}

TEST(Oracle, DivisionByZeroAndOverflowPoseNothing) {
  EXPECT_EQ(solve_word_problem("Tom has 6 apples. Tom shares them equally among 0 friends. How many apples does each "
                               "friend get?"),
            std::nullopt);
  EXPECT_EQ(solve_word_problem("Tom has 1 apples. Tom buys 999999999999999 boxes with 999999999999999 apples in each "
                               "box. How many apples does Tom have now?"),
            std::nullopt);
}

TEST(Oracle, ReplySpellsTheAnswer) {
  EXPECT_EQ(oracle_reply(42), "The answer is 42.");
  EXPECT_EQ(oracle_reply(-3), "The answer is -3.");
}
