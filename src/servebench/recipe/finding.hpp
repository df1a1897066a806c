#pragma once
// One lint finding: which rule, how bad, where (the selection and the catalog position of its cell),
// which flag, and what to change.
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

namespace servebench::recipe {

enum class Severity { error, warning };
std::string_view to_string(Severity s);

struct Finding {
  std::string rule;       // e.g. "divisibility-moe"
  Severity severity = Severity::error;
  std::string selection;  // canonical selection text (the cell, plus overlays when they matter)
  std::string where;      // file:line:col of the cell (or option) in the catalog
  std::string flag;       // canonical flag name, or "" when the finding is not about one flag
  std::string origin;     // "cell", "overlay dim=option", or ""
  std::string message;
};

// "glm.yaml:41:5: error [divisibility-moe] hw=h100,…: --tp-size (cell): message"
std::string to_text(const Finding& f);
boost::json::object to_json(const Finding& f);

}  // namespace servebench::recipe
