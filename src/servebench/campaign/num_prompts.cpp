#include "servebench/campaign/num_prompts.hpp"

#include <cctype>
#include <limits>

#include <fmt/format.h>

namespace servebench::campaign {
namespace {

using Kind = NumPromptsExpr::Node::Kind;
using util::ErrorKind;

// Recursive descent over `text`:  expr := term (('+'|'-') term)* ; term := unary (('*'|'/') unary)* ;
// unary := '-' unary | atom ; atom := integer | 'c' | name '(' expr (',' expr)+ ')' | '(' expr ')'.
class Parser {
 public:
  Parser(std::string_view text, std::vector<NumPromptsExpr::Node>& nodes) : m_text(text), m_nodes(nodes) {}

  util::Result<int> parse_all() {
    auto root = expr();
    if (!root) return root;
    skip_space();
    if (m_pos < m_text.size()) return error(fmt::format("unexpected '{}'", m_text[m_pos]));
    return root;
  }

 private:
  std::unexpected<util::Error> error(std::string what) const {
    return util::failf(ErrorKind::bad_input, "column {}: {}", m_pos + 1, what);
  }
  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }
  bool accept(char c) {
    skip_space();
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  int add(Kind kind, std::vector<int> args, std::int64_t value = 0) {
    m_nodes.push_back({kind, value, std::move(args)});
    return static_cast<int>(m_nodes.size()) - 1;
  }

  util::Result<int> expr() {
    auto lhs = term();
    while (lhs) {
      const bool plus = accept('+');
      if (!plus && !accept('-')) break;
      auto rhs = term();
      if (!rhs) return rhs;
      lhs = add(plus ? Kind::add : Kind::sub, {*lhs, *rhs});
    }
    return lhs;
  }

  util::Result<int> term() {
    auto lhs = unary();
    while (lhs) {
      const bool times = accept('*');
      if (!times && !accept('/')) break;
      auto rhs = unary();
      if (!rhs) return rhs;
      lhs = add(times ? Kind::mul : Kind::div, {*lhs, *rhs});
    }
    return lhs;
  }

  util::Result<int> unary() {
    if (!accept('-')) return atom();
    auto operand = unary();
    if (!operand) return operand;
    return add(Kind::neg, {*operand});
  }

  util::Result<int> atom() {
    skip_space();
    if (m_pos >= m_text.size()) return error("expression ends early");
    const char ch = m_text[m_pos];
    if (std::isdigit(static_cast<unsigned char>(ch))) return number();
    if (std::isalpha(static_cast<unsigned char>(ch))) return name();
    if (accept('(')) {
      auto inner = expr();
      if (!inner) return inner;
      if (!accept(')')) return error("expected ')'");
      return inner;
    }
    return error(fmt::format("unexpected '{}'", ch));
  }

  util::Result<int> number() {
    std::int64_t v = 0;
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, m_text[m_pos] - '0', &v)) {
        m_pos = start;
        return error("integer too large");
      }
      ++m_pos;
    }
    return add(Kind::number, {}, v);
  }

  util::Result<int> name() {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_')) {
      ++m_pos;
    }
    const std::string_view word = m_text.substr(start, m_pos - start);
    if (word == "c") return add(Kind::var_c, {});
    if (word != "max" && word != "min") {
      m_pos = start;
      return error(fmt::format("unknown name '{}'; use c, integers, + - * /, max(...) and min(...)", word));
    }
    if (!accept('(')) return error(fmt::format("expected '(' after {}", word));
    std::vector<int> args;
    do {
      auto arg = expr();
      if (!arg) return arg;
      args.push_back(*arg);
    } while (accept(','));
    if (!accept(')')) return error("expected ',' or ')'");
    if (args.size() < 2) return error(fmt::format("{}() needs at least two arguments", word));
    return add(word == "max" ? Kind::max : Kind::min, std::move(args));
  }

  std::string_view m_text;
  std::vector<NumPromptsExpr::Node>& m_nodes;
  std::size_t m_pos = 0;
};

util::Result<std::int64_t> overflow(std::string_view text, std::int64_t c) {
  return util::failf(ErrorKind::bad_input, "'{}' overflows at c={}", text, c);
}

}  // namespace

util::Result<NumPromptsExpr> NumPromptsExpr::parse(std::string_view text) {
  NumPromptsExpr e;
  e.m_text = std::string(text);
  Parser p(e.m_text, e.m_nodes);
  auto root = p.parse_all();
  if (!root) return std::unexpected(root.error());
  e.m_root = *root;
  return e;
}

util::Result<std::int64_t> NumPromptsExpr::eval(std::int64_t c) const {
  SB_CHECK(m_root >= 0);
  // Nodes are stored children-first, so one forward pass evaluates every node.
  std::vector<std::int64_t> v(m_nodes.size());
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    const Node& n = m_nodes[i];
    const auto arg = [&](std::size_t k) { return v[static_cast<std::size_t>(n.args[k])]; };
    std::int64_t& out = v[i];
    bool bad = false;
    switch (n.kind) {
      case Kind::number: out = n.value; break;
      case Kind::var_c: out = c; break;
      case Kind::neg: bad = __builtin_sub_overflow(std::int64_t{0}, arg(0), &out); break;
      case Kind::add: bad = __builtin_add_overflow(arg(0), arg(1), &out); break;
      case Kind::sub: bad = __builtin_sub_overflow(arg(0), arg(1), &out); break;
      case Kind::mul: bad = __builtin_mul_overflow(arg(0), arg(1), &out); break;
      case Kind::div:
        if (arg(1) == 0) return util::failf(ErrorKind::bad_input, "'{}' divides by zero at c={}", m_text, c);
        bad = arg(0) == std::numeric_limits<std::int64_t>::min() && arg(1) == -1;
        if (!bad) out = arg(0) / arg(1);
        break;
      case Kind::max:
      case Kind::min:
        out = arg(0);
        for (std::size_t k = 1; k < n.args.size(); ++k) out = n.kind == Kind::max ? std::max(out, arg(k)) : std::min(out, arg(k));
        break;
    }
    if (bad) return overflow(m_text, c);
  }
  const std::int64_t result = v[static_cast<std::size_t>(m_root)];
  if (result <= 0) {
    return util::failf(ErrorKind::bad_input, "'{}' gives {} prompts at c={}; it must be positive", m_text, result, c);
  }
  return result;
}

}  // namespace servebench::campaign
