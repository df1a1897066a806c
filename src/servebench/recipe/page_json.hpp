#pragma once
// The `cookbook-selections` export: one JSON object per selection, in the shape of a recorded
// cookbook page (docs/formats.md "Cookbook selections"), and its reader, so a catalog can be
// compared with a published page or with another catalog (page_diff.hpp).
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/page.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

// {"selection", "disabled", "reasons", "cell_found", "model_name", "flags", "env", "hints",
//  ["nnodes", ] "command", "docker_command", "verification", ["warn", "spec_notice", ]
//  ["snapped_selection"]}: nnodes, warn and spec_notice only when a cell matched.
boost::json::object to_json(const Catalog& catalog, const PageView& page);
// Every selection of the catalog (all_selections order).
std::vector<boost::json::object> export_pages(const Catalog& catalog);
// JSON Lines text, one object per line; empty lines are skipped. Fails (bad_input) naming
// `what:line` when a line is not a JSON object with a `selection` object.
util::Result<std::vector<boost::json::object>> read_pages(std::string_view text, const std::string& what);

}  // namespace servebench::recipe
