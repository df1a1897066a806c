#pragma once
// `recipe lint`: every selection the page can reach is rendered and judged (lint_command.hpp), plus
// abbreviated-flag (a flag the parser takes only as an abbreviation of another), and catalog-level
// rules: unvalidated-hardware (an option marked validated_on other hardware), missing-cell (a key
// no rule greys out but no cell serves), unreachable-cell (a cell every selection of which is
// greyed out), extra-flag-known (an extra flag the engine's flag list has by now). One mistake is one finding: findings that name the same rule,
// flag, catalog entry and message are merged, listing every selection they affect.
// Rules from engine knowledge (conflict, arch-backend, divisibility-*) that fire on a selection the
// catalog marks verified are warnings — the measurement outranks the rule — unless the catalog sets
// lint.strict_on_verified.
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
