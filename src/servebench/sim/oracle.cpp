#include "servebench/sim/oracle.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <span>
#include <vector>

namespace servebench::sim {
namespace {

enum class Op { set, add, subtract, add_boxes, divide, ask };

struct Pattern {
  Op op;
  std::string_view words;  // space-separated: literals ("a|b" = either), {name}, {n}, {m}, {noun} (1+ words)
  bool question = false;   // the sentence must end with '?'
};

// The grammar of docs/sim.md "Oracle", one sentence form per line.
constexpr std::array k_patterns = {
    Pattern{Op::add_boxes, "{name} buys {n} boxes with {m} {noun} in each box"},
    Pattern{Op::add, "{name} buys|finds|gets|receives {n} more {noun}"},
    Pattern{Op::subtract, "{name} gives away {n} {noun}"},
    Pattern{Op::subtract, "{name} loses|eats|sells {n} {noun}"},
    Pattern{Op::divide, "{name} shares them equally among {n} friends"},
    Pattern{Op::set, "{name} has {n} {noun}"},
    Pattern{Op::ask, "how many {noun} does {name} have now", true},
    Pattern{Op::ask, "how many {noun} does each friend get", true},
};

struct Captures {
  std::int64_t n = 0, m = 0;
};

std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const std::size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

bool is_name(std::string_view w) {
  if (w.empty() || !std::isupper(static_cast<unsigned char>(w[0]))) return false;
  for (char c : w) {
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '\'' && c != '-') return false;
  }
  return true;
}

// Non-negative integers of up to 15 digits (so products stay far from overflow).
bool read_number(std::string_view w, std::int64_t& out) {
  if (w.empty() || w.size() > 15) return false;
  std::int64_t v = 0;
  for (char c : w) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

bool match_word(std::string_view p, std::string_view w, Captures& c) {
  if (p == "{name}") return is_name(w);
  if (p == "{n}") return read_number(w, c.n);
  if (p == "{m}") return read_number(w, c.m);
  std::size_t start = 0;
  while (start <= p.size()) {
    const std::size_t bar = std::min(p.find('|', start), p.size());
    if (equals_ignoring_case(p.substr(start, bar - start), w)) return true;
    start = bar + 1;
  }
  return false;
}

// Whole-span match; {noun} takes as few words as lets the rest match.
bool match(std::span<const std::string_view> pat, std::span<const std::string_view> words, Captures& c) {
  if (pat.empty()) return words.empty();
  if (words.empty()) return false;
  if (pat.front() == "{noun}") {
    for (std::size_t k = 1; k <= words.size(); ++k) {
      if (match(pat.subspan(1), words.subspan(k), c)) return true;
    }
    return false;
  }
  return match_word(pat.front(), words.front(), c) && match(pat.subspan(1), words.subspan(1), c);
}

// The pattern a sentence ends with (a lead-in such as "Q:" may precede it), and its numbers.
std::optional<std::pair<Op, Captures>> classify(std::string_view sentence, bool question) {
  const auto words = words_of(sentence);
  for (const Pattern& p : k_patterns) {
    if (p.question != question) continue;
    const auto pat = words_of(p.words);
    for (std::size_t start = 0; start + pat.size() <= words.size(); ++start) {
      Captures c;
      if (match(pat, std::span(words).subspan(start), c)) return std::pair{p.op, c};
    }
  }
  return std::nullopt;
}

// A problem being read: the running total, once a "has" sentence set it.
struct OracleProblem {
  std::int64_t total = 0;
  bool active = false;
  std::optional<std::int64_t> answer;

  void apply(Op op, const Captures& c) {
    if (op == Op::set) {
      total = c.n;
      active = true;
      return;
    }
    if (!active) return;
    std::int64_t boxes = 0;
    bool overflow = false;
    switch (op) {
      case Op::add:
        overflow = __builtin_add_overflow(total, c.n, &total);
        break;
      case Op::subtract:
        overflow = __builtin_sub_overflow(total, c.n, &total);
        break;
      case Op::add_boxes:
        overflow = __builtin_mul_overflow(c.n, c.m, &boxes) || __builtin_add_overflow(total, boxes, &total);
        break;
      case Op::divide:
        overflow = c.n == 0;  // no answer rather than a crash
        if (!overflow) total /= c.n;
        break;
      case Op::ask:
        answer = total;
        active = false;
        break;
      case Op::set:
        break;
    }
    if (overflow) active = false;  // a problem whose arithmetic leaves int64 poses nothing we answer
  }
};

bool is_terminator(char c) { return c == '.' || c == '?' || c == '!' || c == '\n'; }

}  // namespace

std::optional<std::int64_t> solve_word_problem(std::string_view text) {
  OracleProblem problem;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !is_terminator(text[i])) continue;
    const bool question = i < text.size() && text[i] == '?';
    if (const auto hit = classify(text.substr(start, i - start), question)) problem.apply(hit->first, hit->second);
    start = i + 1;
  }
  return problem.answer;
}

std::string oracle_reply(std::int64_t answer) { return fmt::format("The answer is {}.", answer); }

}  // namespace servebench::sim
