#pragma once
// Checks across catalog sections, after reading: unique ids, conditions (rules, show_when, cases)
// naming real dims and options, validated_on and multi-node hints naming listed hardware, one cell
// per key, model names and Docker images keyed by keys a selection can produce, env entries of the
// form K=V, flags that split into words, strip_prefixes that are flag names, placeholders declared.
#include "servebench/recipe/catalog.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

// Resolves condition dims to indices (mutates the catalog) and fails (bad_input, file:line:col) at
// the first inconsistency.
util::Result<void> check_catalog(Catalog& catalog);

}  // namespace servebench::recipe
