#pragma once
// One lint finding: which rule, how bad, where (the catalog position of the entry or cell at fault
// and every selection it affects), which flag, and what to change. One mistake is one finding.
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

namespace servebench::recipe {

enum class Severity { error, warning };
std::string_view to_string(Severity s);

struct Finding {
  std::string rule;       // e.g. "divisibility-moe"
  Severity severity = Severity::error;
  std::string selection;  // the simplest affected selection (canonical text)
  std::vector<std::string> selections;  // every affected selection, `selection` first
  std::string where;      // file:line:col of the entry (or cell, or option) in the catalog
  std::string flag;       // canonical flag name, or "" when the finding is not about one flag
  std::string origin;     // "cell", "overlay dim=option", or ""
  std::string message;
};

// "glm.yaml:41:5: error [divisibility-moe] hw=h100,… (+3 more): --tp-size (cell): message"
std::string to_text(const Finding& f);
boost::json::object to_json(const Finding& f);

}  // namespace servebench::recipe
