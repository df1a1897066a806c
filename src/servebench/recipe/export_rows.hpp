#pragma once
// `recipe export`: cookbook benchmark rows (results/cookbook_row.hpp, the one writer of that format)
// for verified selections. One row per selection and measuring arm: `match` is the selection,
// `speed` its verifying points, `sglang_version` the engine version the arm reported, and `notes`
// say where the numbers come from — a simulator run says it is not a GPU measurement.
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/evidence.hpp"
#include "servebench/recipe/verification.hpp"
#include "servebench/results/cookbook_row.hpp"

namespace servebench::recipe {

// Rows for the verified statuses (others are skipped), in status order; speed entries ordered by
// the catalog's benchmark scenarios, then concurrency.
std::vector<results::CookbookRow> export_rows(const Catalog& catalog, const std::vector<SelectionStatus>& statuses,
                                              const Evidence& evidence);

}  // namespace servebench::recipe
