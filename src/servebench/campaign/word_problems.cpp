#include "servebench/campaign/word_problems.hpp"

#include <array>
#include <cctype>
#include <random>

#include <fmt/format.h>

namespace servebench::campaign {
namespace {

constexpr std::array<std::string_view, 12> k_names = {"Ava", "Ben", "Chloe", "Diego", "Emma", "Farid",
                                                      "Grace", "Hiro", "Isla", "Jonas", "Kira", "Liam"};
constexpr std::array<std::string_view, 10> k_nouns = {"apples",  "marbles", "pencils",  "stickers", "books",
                                                      "cookies", "stamps",  "seashells", "crayons",  "coins"};

struct Draw {
  std::mt19937_64& rng;
  std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  }
};

// One problem from form `form` (0..3); each sentence matches one oracle pattern.
WordProblem make_problem(int form, std::string_view name, std::string_view noun, Draw& d) {
  const std::int64_t start = d(12, 60);
  const std::string has = fmt::format("{} has {} {}.", name, start, noun);
  const std::string ask_total = fmt::format("How many {} does {} have now?", noun, name);
  switch (form) {
    case 0: {
      const std::int64_t more = d(3, 25), away = d(1, start - 1);
      return {fmt::format("{} {} buys {} more {}. {} gives away {} {}. {}", has, name, more, noun, name, away, noun,
                          ask_total),
              start + more - away};
    }
    case 1: {
      const std::int64_t boxes = d(2, 6), each = d(2, 9);
      return {fmt::format("{} {} buys {} boxes with {} {} in each box. {}", has, name, boxes, each, noun, ask_total),
              start + boxes * each};
    }
    case 2: {
      const std::int64_t friends = d(2, 6);
      const std::int64_t total = friends * d(4, 15);
      const std::int64_t found = total - start > 0 ? total - start : total;  // total stays a multiple of friends
      const std::int64_t first = total - found;
      return {fmt::format("{} has {} {}. {} finds {} more {}. {} shares them equally among {} friends. How many {} does "
                          "each friend get?",
                          name, first, noun, name, found, noun, name, friends, noun),
              total / friends};
    }
    default: {
      const std::int64_t lost = d(1, start - 1), got = d(2, 30);
      return {fmt::format("{} {} loses {} {}. {} receives {} more {}. {}", has, name, lost, noun, name, got, noun,
                          ask_total),
              start - lost + got};
    }
  }
}

// A comma between digits that separates thousands: exactly three digits follow it.
bool thousands_group(std::string_view s, std::size_t comma) {
  if (comma + 3 >= s.size()) return false;
  for (std::size_t k = 1; k <= 3; ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[comma + k]))) return false;
  }
  return comma + 4 == s.size() || !std::isdigit(static_cast<unsigned char>(s[comma + 4]));
}

}  // namespace

std::vector<WordProblem> make_word_problems(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x6a09e667f3bcc908ULL);
  Draw d{rng};
  std::vector<WordProblem> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto name = k_names[static_cast<std::size_t>(d(0, k_names.size() - 1))];
    const auto noun = k_nouns[static_cast<std::size_t>(d(0, k_nouns.size() - 1))];
    out.push_back(make_problem(static_cast<int>(i % 4), name, noun, d));
  }
  return out;
}

std::string_view word_problem_instruction() {
  return "Solve this arithmetic word problem and reply with one short sentence: The answer is <number>.\n\n";
}

std::optional<std::int64_t> parse_answer(std::string_view reply) {
  std::optional<std::int64_t> last;
  std::size_t i = 0;
  while (i < reply.size()) {
    if (!std::isdigit(static_cast<unsigned char>(reply[i]))) {
      ++i;
      continue;
    }
    const bool negative = i > 0 && reply[i - 1] == '-';
    std::int64_t v = 0;
    bool overflow = false;
    // Digits with thousands separators: a comma counts only when three digits follow it.
    while (i < reply.size()) {
      const char c = reply[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        overflow = overflow || __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v);
        ++i;
      } else if (c == ',' && thousands_group(reply, i)) {
        ++i;
      } else {
        break;
      }
    }
    if (!overflow) last = negative ? -v : v;
  }
  return last;
}

}  // namespace servebench::campaign
