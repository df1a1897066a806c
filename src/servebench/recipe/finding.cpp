#include "servebench/recipe/finding.hpp"

#include <fmt/format.h>

namespace servebench::recipe {

std::string_view to_string(Severity s) { return s == Severity::error ? "error" : "warning"; }

std::string to_text(const Finding& f) {
  std::string flag;
  if (!f.flag.empty()) flag = f.origin.empty() ? f.flag + ": " : fmt::format("{} ({}): ", f.flag, f.origin);
  return fmt::format("{}: {} [{}] {}: {}{}", f.where, to_string(f.severity), f.rule, f.selection, flag, f.message);
}

boost::json::object to_json(const Finding& f) {
  return {{"rule", f.rule},         {"severity", to_string(f.severity)},
          {"selection", f.selection}, {"where", f.where},
          {"flag", f.flag},         {"origin", f.origin},
          {"message", f.message}};
}

}  // namespace servebench::recipe
