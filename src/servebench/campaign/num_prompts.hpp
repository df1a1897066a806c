#pragma once
// The `num_prompts` rule of a campaign: a tiny integer expression in `c` (the point's concurrency),
// e.g. "max(8, 2*c)". Grammar: integers, `c`, + - * / (integer division, rounding toward zero),
// unary minus, parentheses, and max(a, b, ...) / min(a, b, ...) with two or more arguments.
// Pure: parse once, evaluate per point.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::campaign {

class NumPromptsExpr {
 public:
  // Parses `text`; fails (bad_input) with "column N: what is wrong" for a syntax error, an
  // unknown name or function, a function with fewer than two arguments, or an integer too large.
  static util::Result<NumPromptsExpr> parse(std::string_view text);

  // The value for concurrency `c`; fails (bad_input) on division by zero, overflow, or a value
  // that is not a positive number of prompts.
  util::Result<std::int64_t> eval(std::int64_t c) const;

  // The expression as written.
  const std::string& text() const { return m_text; }

  struct Node {
    enum class Kind { number, var_c, neg, add, sub, mul, div, max, min };
    Kind kind = Kind::number;
    std::int64_t value = 0;     // number
    std::vector<int> args;      // operand node indices (1 for neg, 2 for binary, 2+ for max/min)
  };

 private:
  std::string m_text;
  std::vector<Node> m_nodes;  // post-order: children before parents; the root is last
  int m_root = -1;
};

}  // namespace servebench::campaign
