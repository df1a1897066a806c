#include "servebench/recipe/finding.hpp"

#include <boost/json/array.hpp>
#include <fmt/format.h>

namespace servebench::recipe {

std::string_view to_string(Severity s) { return s == Severity::error ? "error" : "warning"; }

std::string to_text(const Finding& f) {
  std::string flag;
  if (!f.flag.empty()) flag = f.origin.empty() ? f.flag + ": " : fmt::format("{} ({}): ", f.flag, f.origin);
  const std::string more = f.selections.size() > 1 ? fmt::format(" (+{} more)", f.selections.size() - 1) : "";
  return fmt::format("{}: {} [{}] {}{}: {}{}", f.where, to_string(f.severity), f.rule, f.selection, more, flag, f.message);
}

boost::json::object to_json(const Finding& f) {
  boost::json::array selections;
  for (const auto& s : f.selections) selections.emplace_back(s);
  return {{"rule", f.rule},         {"severity", to_string(f.severity)},
          {"selection", f.selection}, {"selections", std::move(selections)},
          {"where", f.where},       {"flag", f.flag},
          {"origin", f.origin},     {"message", f.message}};
}

}  // namespace servebench::recipe
