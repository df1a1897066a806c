#include "servebench/recipe/greying.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

// A cell whose key agrees with the selection on dims 0..i.
bool some_cell_agrees(const Catalog& c, const Selection& s, std::size_t i) {
  return std::any_of(c.cells.begin(), c.cells.end(), [&](const Cell& cell) {
    return std::equal(cell.match.begin(), cell.match.begin() + static_cast<std::ptrdiff_t>(i + 1), s.options.begin());
  });
}

std::string no_cell_reason(const Catalog& c, const Selection& s, std::size_t i) {
  std::vector<std::string> higher;
  for (std::size_t j = 0; j < i; ++j) higher.push_back(c.dims[j].id + "=" + s.options[j]);
  const std::string with = higher.empty() ? "" : " with " + util::join(higher, ", ");
  return fmt::format("no cell has {}={}{}", c.dims[i].id, s.options[i], with);
}

}  // namespace

std::string_view to_string(GreyKind k) {
  switch (k) {
    case GreyKind::disabled: return "disabled";
    case GreyKind::no_cell: return "no-cell";
    case GreyKind::hidden: return "hidden";
  }
  return "disabled";
}

bool row_shown(const Catalog& c, const Selection& s, std::size_t i) { return conditions_hold(c.dims[i].show_when, s.options); }

std::optional<Greyed> grey_reason(const Catalog& c, const Selection& s, std::size_t i) {
  const Dim& d = c.dims[i];
  const Option& o = chosen(c, s, i);
  if (!conditions_hold(o.show_when, s.options) || (!row_shown(c, s, i) && o.id != d.options.front().id)) {
    return Greyed{i, o.id, GreyKind::hidden, "not shown for the current selection"};
  }
  for (const auto& rule : o.disable) {
    if (rule_applies(rule, s.options)) return Greyed{i, o.id, GreyKind::disabled, rule.reason};
  }
  if (d.kind != DimKind::overlay && !some_cell_agrees(c, s, i)) return Greyed{i, o.id, GreyKind::no_cell, no_cell_reason(c, s, i)};
  return std::nullopt;
}

std::vector<Greyed> greyed(const Catalog& c, const Selection& s) {
  std::vector<Greyed> out;
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (auto g = grey_reason(c, s, i)) out.push_back(std::move(*g));
  }
  return out;
}

bool reachable(const Catalog& c, const Selection& s) {
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (grey_reason(c, s, i)) return false;
  }
  return true;
}

bool contributes(const Catalog& c, const Selection& s, std::size_t i) {
  return c.dims[i].kind == DimKind::overlay && row_shown(c, s, i) && !grey_reason(c, s, i);
}

Selection snapped(const Catalog& c, const Selection& s) {
  Selection out = s;
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (!grey_reason(c, out, i)) continue;
    for (const auto& o : c.dims[i].options) {
      Selection trial = out;
      trial.options[i] = o.id;
      if (!grey_reason(c, trial, i)) {
        out = std::move(trial);
        break;
      }
    }
  }
  return out;
}

}  // namespace servebench::recipe
