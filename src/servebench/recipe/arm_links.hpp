#pragma once
// Which selection of a catalog an evidence arm measured. In order: the arm's recipe key {catalog,
// select} (server_facts.json); an arm named like the selection (recipe::arm_name); and when neither
// names a selection of this catalog — a hand-written or renamed arm, an option renamed since — the
// reachable selection on the arm's hardware whose command is closest to the measured launch
// command: fewest flag changes, the only one with that count, and at most half the measured flags
// changed. An arm recorded for another catalog is never linked.
#include <optional>
#include <string>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/evidence.hpp"
#include "servebench/recipe/selection.hpp"

namespace servebench::recipe {

struct ArmLink {
  std::string run_dir, arm;
  std::optional<Selection> selection;  // nullopt: the arm measured no selection of this catalog
  std::string how;                     // "recipe key", "arm name", "closest command (2 changes)"
};

// One link per arm with a server_facts.json.
std::vector<ArmLink> link_arms(const Catalog& catalog, const Evidence& evidence);
// The link of an arm, or nullptr.
const ArmLink* find_link(const std::vector<ArmLink>& links, const std::string& run_dir, const std::string& arm);

}  // namespace servebench::recipe
