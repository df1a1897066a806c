#pragma once
// `recipe campaign`: a campaign file (docs/campaign-file.md) whose arms are rendered selections,
// closing the loop recipe → campaign → evidence → status. Each arm carries
//   recipe: {catalog: <catalog name>, select: <canonical selection>}
// which the campaign copies into server_facts.json so `recipe status` can tell a stale measurement
// of the same selection from an unrelated one.
#include <string>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/lint_facts.hpp"
#include "servebench/recipe/render.hpp"
#include "servebench/recipe/selection.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct CampaignRequest {
  std::vector<Selection> selections;
  Target target = Target::sim;  // sim: serve-sim arms · engine: the catalog engine's real command
  std::string name = {};        // campaign name; empty: "<catalog>-recipe"
};

// The campaign as YAML text. Arms launch on 127.0.0.1 with `--port {port}`; gpus come from the
// command's parallelism flags; serve-sim arms add `--sim-oracle` so their required gate can pass.
// Fails (bad_input) when a selection is disabled or has no cell, two selections are the same, or the
// catalog has no benchmark scenarios.
util::Result<std::string> campaign_yaml(const Catalog& catalog, const CampaignRequest& request,
                                        const ParallelismFlags& parallelism);

}  // namespace servebench::recipe
