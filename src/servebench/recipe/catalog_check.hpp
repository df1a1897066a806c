#pragma once
// Checks across catalog sections, after reading: unique ids, hardware known to data/hardware.yaml,
// rules and validated_on naming real dims and options, one cell per key, model names keyed by real
// options, env entries of the form K=V, flags that split into words, placeholders declared.
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/gpu_facts.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

// Resolves rule dims to indices (mutates the catalog) and fails (bad_input, file:line:col) at the
// first inconsistency.
util::Result<void> check_catalog(Catalog& catalog, const std::vector<GpuFacts>& gpus);

}  // namespace servebench::recipe
