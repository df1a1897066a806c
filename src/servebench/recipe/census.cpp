#include "servebench/recipe/census.hpp"

#include <algorithm>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "servebench/recipe/greying.hpp"
#include "servebench/recipe/selection.hpp"

namespace servebench::recipe {

Census census(const Catalog& catalog) {
  Census out;
  for (const auto& s : all_selections(catalog)) {
    ++out.total;
    if (find_cell(catalog, s) == nullptr) ++out.without_cell;
    const auto greyed_chips = greyed(catalog, s);
    if (greyed_chips.empty()) {
      ++out.reachable;
      continue;
    }
    ++out.greyed;
    for (const auto& g : greyed_chips) {
      const std::string key = fmt::format("{}={} ({}): {}", catalog.dims[g.dim].id, g.value, to_string(g.kind), g.reason);
      auto it = std::find_if(out.by_reason.begin(), out.by_reason.end(), [&](const auto& r) { return r.first == key; });
      if (it == out.by_reason.end()) {
        out.by_reason.emplace_back(key, 1);
      } else {
        ++it->second;
      }
    }
  }
  return out;
}

std::string to_text(const Census& c) {
  std::string out = fmt::format("{} selections: {} reachable, {} greyed out, {} without a cell\n", c.total, c.reachable,
                                c.greyed, c.without_cell);
  if (!c.by_reason.empty()) out += "greyed out, by reason (a selection counts once per greyed chip):\n";
  for (const auto& [reason, n] : c.by_reason) out += fmt::format("  {:>6}  {}\n", n, reason);
  return out;
}

boost::json::object to_json(const Census& c) {
  boost::json::array reasons;
  for (const auto& [reason, n] : c.by_reason) reasons.push_back(boost::json::object{{"reason", reason}, {"selections", n}});
  return {{"selections", c.total}, {"reachable", c.reachable}, {"greyed_out", c.greyed}, {"without_cell", c.without_cell},
          {"greyed_by_reason", std::move(reasons)}};
}

}  // namespace servebench::recipe
