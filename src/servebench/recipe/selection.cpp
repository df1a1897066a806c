#include "servebench/recipe/selection.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/greying.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using util::ErrorKind;

std::vector<std::string> dim_ids(const Catalog& c) {
  std::vector<std::string> ids;
  for (const auto& d : c.dims) ids.push_back(d.id);
  return ids;
}

std::vector<std::string> option_ids(const Dim& d) {
  std::vector<std::string> ids;
  for (const auto& o : d.options) ids.push_back(o.id);
  return ids;
}

bool shown(const Catalog& c, const Selection& s, std::size_t i) {
  return c.dims[i].kind != DimKind::overlay || s.options[i] != default_option(c, s, i);
}

// Overlays not given: first options, then each dim's default in dim order.
void fill_defaults(const Catalog& c, Selection& s, const std::vector<bool>& given) {
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (!given[i]) s.options[i] = c.dims[i].options.front().id;
  }
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (!given[i]) s.options[i] = default_option(c, s, i);
  }
}

}  // namespace

bool SelectionFilter::accepts(const Selection& s) const {
  for (std::size_t i = 0; i < options.size() && i < s.options.size(); ++i) {
    if (options[i] && *options[i] != s.options[i]) return false;
  }
  return true;
}

util::Result<SelectionFilter> parse_filter(const Catalog& catalog, std::string_view text) {
  SelectionFilter f;
  f.options.resize(catalog.dims.size());
  if (util::trim(text).empty()) return f;
  for (const auto part : util::split(text, ',')) {
    const auto eq = part.find('=');
    const auto key = util::trim(part.substr(0, eq));
    if (eq == std::string_view::npos) return util::failf(ErrorKind::bad_input, "selection item '{}' must be dim=option", part);
    const auto value = util::trim(part.substr(eq + 1));
    const auto i = catalog.dim_index(key);
    if (!i) {
      return util::failf(ErrorKind::bad_input, "unknown dimension '{}' in selection; dimensions: {}", key,
                         util::join(dim_ids(catalog), ", "));
    }
    if (f.options[*i]) return util::failf(ErrorKind::bad_input, "dimension '{}' is selected twice", key);
    if (catalog.dims[*i].find(value) == nullptr) {
      return util::failf(ErrorKind::bad_input, "'{}' is not an option of '{}'; options: {}", value, key,
                         util::join(option_ids(catalog.dims[*i]), ", "));
    }
    f.options[*i] = std::string(value);
  }
  return f;
}

util::Result<Selection> parse_selection(const Catalog& catalog, std::string_view text) {
  auto f = parse_filter(catalog, text);
  if (!f) return std::unexpected(f.error());
  Selection s;
  std::vector<bool> given;
  for (std::size_t i = 0; i < catalog.dims.size(); ++i) {
    const Dim& d = catalog.dims[i];
    if (!f->options[i] && d.kind != DimKind::overlay) {
      return util::failf(ErrorKind::bad_input, "selection needs '{}' (one of: {})", d.id, util::join(option_ids(d), ", "));
    }
    s.options.push_back(f->options[i].value_or(""));
    given.push_back(f->options[i].has_value());
  }
  fill_defaults(catalog, s, given);
  return s;
}

std::vector<std::pair<std::string, std::string>> to_pairs(const Catalog& catalog, const Selection& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < catalog.dims.size(); ++i) {
    if (shown(catalog, s, i)) out.emplace_back(catalog.dims[i].id, s.options[i]);
  }
  return out;
}

std::string to_string(const Catalog& catalog, const Selection& s) {
  std::vector<std::string> parts;
  for (const auto& [dim, option] : to_pairs(catalog, s)) parts.push_back(dim + "=" + option);
  return util::join(parts, ",");
}

std::string arm_name(const Catalog& catalog, const Selection& s) {
  std::vector<std::string> parts;
  for (const auto& [dim, option] : to_pairs(catalog, s)) parts.push_back(option);
  return util::join(parts, "-");
}

std::size_t overlays_changed(const Catalog& catalog, const Selection& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < catalog.dims.size(); ++i) n += catalog.dims[i].kind == DimKind::overlay && shown(catalog, s, i) ? 1 : 0;
  return n;
}

std::vector<Selection> all_selections(const Catalog& catalog) {
  std::vector<Selection> out;
  std::vector<std::size_t> index(catalog.dims.size(), 0);
  while (true) {
    Selection s;
    for (std::size_t i = 0; i < index.size(); ++i) s.options.push_back(catalog.dims[i].options[index[i]].id);
    out.push_back(std::move(s));
    std::size_t i = index.size();
    while (i > 0) {
      --i;
      if (++index[i] < catalog.dims[i].options.size()) break;
      index[i] = 0;
      if (i == 0) return out;
    }
    if (index.empty()) return out;
  }
}

Selection cell_selection(const Catalog& catalog, const Cell& cell) {
  Selection s{cell.match};
  std::vector<bool> given(catalog.dims.size(), false);
  for (std::size_t i = 0; i < cell.match.size(); ++i) given[i] = true;
  s.options.resize(catalog.dims.size());
  fill_defaults(catalog, s, given);
  return s;
}

const std::string& default_option(const Catalog& catalog, const Selection& s, std::size_t i) {
  const Dim& d = catalog.dims[i];
  const std::string* pick = d.default_option.pick(s.options);
  Selection trial = s;
  trial.options[i] = pick != nullptr ? *pick : d.options.front().id;
  if (!grey_reason(catalog, trial, i)) return d.find(trial.options[i])->id;
  for (const auto& o : d.options) {
    trial.options[i] = o.id;
    if (!grey_reason(catalog, trial, i)) return o.id;
  }
  return pick != nullptr ? *pick : d.options.front().id;
}

std::vector<std::pair<std::string, std::string>> all_pairs(const Catalog& catalog, const Selection& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < catalog.dims.size(); ++i) out.emplace_back(catalog.dims[i].id, s.options[i]);
  return out;
}

const Cell* find_cell(const Catalog& catalog, const Selection& s) {
  const std::size_t n = catalog.key_dims();
  for (const auto& cell : catalog.cells) {
    if (std::equal(cell.match.begin(), cell.match.end(), s.options.begin(), s.options.begin() + n)) return &cell;
  }
  return nullptr;
}

const Option& chosen(const Catalog& catalog, const Selection& s, std::size_t i) {
  SB_CHECK(i < catalog.dims.size() && i < s.options.size());
  const Option* o = catalog.dims[i].find(s.options[i]);
  SB_CHECK(o != nullptr);
  return *o;
}

std::vector<std::string> disable_reasons(const Catalog& catalog, const Selection& s) {
  std::vector<std::string> reasons;
  for (const auto& g : greyed(catalog, s)) {
    if (g.kind == GreyKind::no_cell) continue;
    if (std::find(reasons.begin(), reasons.end(), g.reason) == reasons.end()) reasons.push_back(g.reason);
  }
  return reasons;
}

}  // namespace servebench::recipe
