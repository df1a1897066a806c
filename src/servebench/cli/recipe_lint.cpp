// `servebench recipe lint CATALOG`: every finding, then how the selections divide up (reachable,
// greyed out by reason, without a cell). Exit 1 when there is an error finding.
#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "servebench/cli/command.hpp"
#include "servebench/cli/recipe_verbs.hpp"
#include "servebench/recipe/census.hpp"
#include "servebench/recipe/lint.hpp"

namespace servebench::cli {

int run_lint(const RecipeArgs& a) {
  namespace json = boost::json;
  require_format(a.format, {"text", "json"});
  const recipe::Catalog c = unwrap(recipe::load_catalog(a.catalog));
  const auto facts = unwrap(recipe::load_lint_facts());
  const auto report = unwrap(recipe::lint(c, facts));
  const auto census = recipe::census(c);
  const auto errors = report.count(recipe::Severity::error), warnings = report.count(recipe::Severity::warning);
  if (a.format == "json") {
    json::array findings;
    for (const auto& f : report.findings) findings.push_back(recipe::to_json(f));
    print_json(json::object{{"catalog", c.file}, {"selections_checked", report.selections_checked}, {"errors", errors},
                            {"warnings", warnings}, {"findings", std::move(findings)}, {"census", recipe::to_json(census)}});
  } else {
    for (const auto& f : report.findings) fmt::print("{}\n", recipe::to_text(f));
    fmt::print("{}", recipe::to_text(census));
    fmt::print("{}: {} selections checked, {} error(s), {} warning(s)\n", c.file, report.selections_checked, errors, warnings);
  }
  return errors > 0 ? k_exit_measured_failure : k_exit_ok;
}

}  // namespace servebench::cli
