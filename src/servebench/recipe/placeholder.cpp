#include "servebench/recipe/placeholder.hpp"

#include <fmt/format.h>

namespace servebench::recipe {
namespace {

struct Found {
  std::size_t begin = std::string_view::npos, end = 0;  // [begin, end) covers "{{NAME}}"
  std::string_view name;
};

Found next_placeholder(std::string_view text, std::size_t from) {
  const auto open = text.find("{{", from);
  if (open == std::string_view::npos) return {};
  const auto close = text.find("}}", open + 2);
  if (close == std::string_view::npos) return {};
  return {open, close + 2, text.substr(open + 2, close - open - 2)};
}

}  // namespace

void PlaceholderValues::set(std::string name, std::string value) {
  for (auto& [n, v] : m_values) {
    if (n == name) {
      v = std::move(value);
      return;
    }
  }
  m_values.emplace_back(std::move(name), std::move(value));
}

std::optional<std::string_view> PlaceholderValues::get(std::string_view name) const {
  for (const auto& [n, v] : m_values) {
    if (n == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::vector<std::string> placeholder_names(std::string_view text) {
  std::vector<std::string> names;
  for (Found f = next_placeholder(text, 0); f.begin != std::string_view::npos; f = next_placeholder(text, f.end)) {
    names.emplace_back(f.name);
  }
  return names;
}

util::Result<std::string> substitute(std::string_view text, const PlaceholderValues& values) {
  std::string out;
  std::size_t pos = 0;
  for (Found f = next_placeholder(text, 0); f.begin != std::string_view::npos; f = next_placeholder(text, f.end)) {
    const auto value = values.get(f.name);
    if (!value) return util::failf(util::ErrorKind::bad_input, "placeholder {{{{{}}}}} has no value", f.name);
    out.append(text.substr(pos, f.begin - pos));
    out.append(*value);
    pos = f.end;
  }
  out.append(text.substr(pos));
  return out;
}

std::string interpolate(std::string_view text, const PlaceholderValues& values) {
  std::string out;
  std::size_t pos = 0;
  for (Found f = next_placeholder(text, 0); f.begin != std::string_view::npos; f = next_placeholder(text, f.end)) {
    const auto value = values.get(f.name);
    out.append(text.substr(pos, f.begin - pos));
    out.append(value ? *value : text.substr(f.begin, f.end - f.begin));
    pos = f.end;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace servebench::recipe
