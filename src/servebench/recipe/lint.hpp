#pragma once
// `recipe lint`: every enabled selection is rendered and judged (lint_command.hpp), plus catalog-level
// rules: unvalidated-hardware (an option marked validated_on other hardware), missing-cell (an enabled
// key without a cell), unreachable-cell (a cell every selection of which is disabled). A finding is
// reported once per cell, under the selection with the fewest non-default overlays that shows it.
#include <cstddef>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/finding.hpp"
#include "servebench/recipe/lint_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct LintReport {
  std::vector<Finding> findings;  // catalog-level first, then by cell in catalog order
  std::size_t selections_checked = 0;
  std::size_t count(Severity s) const;
};

// Fails only when the engine's flag registry cannot be loaded; problems of the catalog are findings.
util::Result<LintReport> lint(const Catalog& catalog, const LintFacts& facts);

}  // namespace servebench::recipe
