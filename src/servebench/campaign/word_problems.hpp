#pragma once
// Arithmetic word problems with known answers for the quality gate. They are written in exactly
// the sentence grammar serve-sim's --sim-oracle solves (docs/sim.md "Oracle"; sim/oracle.cpp), and
// read as ordinary grade-school problems to a real model. Every division comes out even.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace servebench::campaign {

struct WordProblem {
  std::string text;  // "Ava has 12 apples. Ava buys 3 more apples. How many apples does Ava have now?"
  std::int64_t answer = 0;
};

// `count` problems, deterministic for `seed`; small positive numbers, answers positive.
std::vector<WordProblem> make_word_problems(std::size_t count, std::uint64_t seed);

// The instruction the gate puts before a problem (no sentence of it is in the oracle's grammar).
std::string_view word_problem_instruction();

// The answer a reply gives: the last integer in it ("1,234" reads as 1234); nullopt when none.
std::optional<std::int64_t> parse_answer(std::string_view reply);

}  // namespace servebench::campaign
