#pragma once
// Which chips of a selection the cookbook page greys out, and why (docs/formats.md "Selections"):
//   hidden    the option's show_when does not hold, or its row is hidden and it is not the row's
//             first option
//   disabled  a disable rule of the option applies to the whole selection
//   no-cell   hardware/match dims only: no cell has this option while agreeing with every higher
//             dim of the selection
// A selection with a greyed chip cannot be reached on the page; the page would snap it to
// `snapped()`. Overlay picks that are greyed or in a hidden row contribute nothing.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/selection.hpp"

namespace servebench::recipe {

enum class GreyKind { disabled, no_cell, hidden };
std::string_view to_string(GreyKind k);  // "disabled" | "no-cell" | "hidden"

struct Greyed {
  std::size_t dim = 0;
  std::string value;  // the option id
  GreyKind kind = GreyKind::disabled;
  std::string reason;
};

// Why the chip of dim `i` is greyed in this selection, or nullopt when it is usable.
std::optional<Greyed> grey_reason(const Catalog& c, const Selection& s, std::size_t i);
// Every greyed chip, in dim order (at most one per dim).
std::vector<Greyed> greyed(const Catalog& c, const Selection& s);
// True when no chip is greyed (such a selection always has a cell).
bool reachable(const Catalog& c, const Selection& s);
// True when overlay dim `i` adds its option's flags, env and hints: the row is shown and the pick
// is neither disabled nor hidden.
bool contributes(const Catalog& c, const Selection& s, std::size_t i);
// True when the row of dim `i` is shown.
bool row_shown(const Catalog& c, const Selection& s, std::size_t i);
// The selection the page snaps to: in dim order, each greyed pick moves to its row's first usable
// option (judged with the picks already snapped). Equal to `s` when `s` is reachable.
Selection snapped(const Catalog& c, const Selection& s);

}  // namespace servebench::recipe
