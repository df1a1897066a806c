#pragma once
// How a catalog's selections divide up: how many the page can reach, how many have no cell, and
// the greyed-out ones by reason (a selection with several greyed chips counts under each).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/recipe/catalog.hpp"

namespace servebench::recipe {

struct Census {
  std::size_t total = 0, reachable = 0, greyed = 0, without_cell = 0;
  // "dim=value (kind): reason" → selections, in order of first appearance.
  std::vector<std::pair<std::string, std::size_t>> by_reason;
};

Census census(const Catalog& catalog);
// "1152 selections: 528 reachable, 624 greyed out, 192 without a cell", then one indented line per reason.
std::string to_text(const Census& c);
boost::json::object to_json(const Census& c);

}  // namespace servebench::recipe
