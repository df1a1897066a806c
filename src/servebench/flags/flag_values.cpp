#include "servebench/flags/flag_values.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::flags {
namespace {

// The element type: "int" for "int", "int:human_readable_int" and "list[int]".
std::string_view base_type(std::string_view type) {
  if (type.starts_with("list[") && type.ends_with("]")) type = type.substr(5, type.size() - 6);
  return type.substr(0, type.find(':'));
}

bool is_int(std::string_view w, bool human_readable) {
  if (human_readable && !w.empty() && std::string_view("kKmMgG").find(w.back()) != std::string_view::npos) {
    return util::parse_double(w.substr(0, w.size() - 1), "").has_value();
  }
  return util::parse_int(w, "").has_value();
}

using Kind = ValueProblem::Kind;

std::optional<ValueProblem> word_problem(const FlagSpec& spec, std::string_view word) {
  const std::string_view type = base_type(spec.type);
  if (type == "int" && !is_int(word, spec.type.find("human_readable") != std::string::npos)) {
    return ValueProblem{Kind::type, fmt::format("{} takes an integer, got '{}'", spec.name, word)};
  }
  if (type == "float" && !util::parse_double(word, "")) {
    return ValueProblem{Kind::type, fmt::format("{} takes a number, got '{}'", spec.name, word)};
  }
  if (type == "json" && !util::parse_json(word, spec.name)) {
    return ValueProblem{Kind::type, fmt::format("{} takes JSON, got '{}'", spec.name, word)};
  }
  if (!spec.choices.empty() && !spec.choices_computed &&
      std::find(spec.choices.begin(), spec.choices.end(), word) == spec.choices.end()) {
    return ValueProblem{Kind::choice, fmt::format("{} '{}' is not one of: {}", spec.name, word, util::join(spec.choices, ", "))};
  }
  if (spec.range && (type == "int" || type == "float")) {
    const auto v = util::parse_double(word, "");
    const ValueRange& r = *spec.range;
    const bool low = v && r.min && (r.min_exclusive ? *v <= *r.min : *v < *r.min);
    const bool high = v && r.max && (r.max_exclusive ? *v >= *r.max : *v > *r.max);
    if (low || high) {
      return ValueProblem{Kind::range, fmt::format("{} {} is outside {}{}", spec.name, word, to_string(r),
                                                   r.reason.empty() ? "" : ": " + r.reason)};
    }
  }
  return std::nullopt;
}

}  // namespace

std::string to_string(const ValueRange& r) {
  const auto number = [](double d) { return fmt::format("{:g}", d); };
  return fmt::format("{}{}, {}{}", r.min && !r.min_exclusive ? "[" : "(", r.min ? number(*r.min) : "-inf",
                     r.max ? number(*r.max) : "+inf", r.max && !r.max_exclusive ? "]" : ")");
}

std::optional<ValueProblem> value_problem(const FlagSpec& spec, const std::optional<std::string>& value) {
  if (spec.arity == FlagArity::none) {
    if (value) return ValueProblem{Kind::arity, fmt::format("{} is a switch and takes no value, got '{}'", spec.name, *value)};
    return std::nullopt;
  }
  if (!value) {
    if (spec.arity == FlagArity::optional) return std::nullopt;
    return ValueProblem{Kind::arity, spec.name + " needs a value"};
  }
  if (spec.arity == FlagArity::one) return word_problem(spec, *value);
  for (const auto word : util::split(*value, ' ')) {
    if (auto p = word_problem(spec, word)) return p;
  }
  return std::nullopt;
}

}  // namespace servebench::flags
