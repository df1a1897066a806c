#pragma once
// A selection: one option per catalog dimension (hardware, match dims, overlay dims), written
// `hw=gb300,strategy=low-latency,quant=fp8[,kvDsaPair=fp8-trtllm]`. Overlay dims left out take their
// default for that selection (the dim's `default` cases, else its first option; a default the
// selection greys out moves to the first usable option). The canonical text lists key dims in
// catalog order, then overlays that differ from their default.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct Selection {
  std::vector<std::string> options;  // one option id per catalog dim, in dim order
  friend bool operator==(const Selection&, const Selection&) = default;
};

// A partial selection, for filtering lists: unset dims accept any option.
struct SelectionFilter {
  std::vector<std::optional<std::string>> options;
  bool accepts(const Selection& s) const;
};

// Parses "dim=option,…"; fails (bad_input) on an unknown dim or option (listing the valid ones) or a
// repeated dim. An empty text accepts everything.
util::Result<SelectionFilter> parse_filter(const Catalog& catalog, std::string_view text);
// Parses a complete selection: every hardware/match dim must be given; overlays default.
util::Result<Selection> parse_selection(const Catalog& catalog, std::string_view text);

// Canonical text: key dims in order, then overlays that differ from their default.
std::string to_string(const Catalog& catalog, const Selection& s);
// The same pairs, e.g. for a cookbook row's `match`.
std::vector<std::pair<std::string, std::string>> to_pairs(const Catalog& catalog, const Selection& s);
// A campaign arm name: the canonical values joined by '-', e.g. "gb300-low-latency-fp8-fp8-trtllm".
std::string arm_name(const Catalog& catalog, const Selection& s);
// Number of overlay dims not at their default.
std::size_t overlays_changed(const Catalog& catalog, const Selection& s);
// The default option of overlay dim `i` for this selection.
const std::string& default_option(const Catalog& catalog, const Selection& s, std::size_t i);
// Every option as "dim=value" pairs in dim order (what an export's `selection` holds).
std::vector<std::pair<std::string, std::string>> all_pairs(const Catalog& catalog, const Selection& s);

// Every selection: the product of all dims' options, in catalog order (the last dim varies fastest).
std::vector<Selection> all_selections(const Catalog& catalog);
// The selection of a cell with every overlay at its default.
Selection cell_selection(const Catalog& catalog, const Cell& cell);
// The cell whose key matches, or nullptr.
const Cell* find_cell(const Catalog& catalog, const Selection& s);
// The option chosen for dim `i`.
const Option& chosen(const Catalog& catalog, const Selection& s, std::size_t i);

// Reasons of the chosen options that are disabled or hidden (greying.hpp), each once, dim order.
std::vector<std::string> disable_reasons(const Catalog& catalog, const Selection& s);

}  // namespace servebench::recipe
