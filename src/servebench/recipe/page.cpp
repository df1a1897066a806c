#include "servebench/recipe/page.hpp"

#include "servebench/recipe/compose.hpp"
#include "servebench/recipe/placeholder.hpp"
#include "servebench/recipe/render.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

// The page's interpolation: declared placeholders take their default (or ""), MODEL_NAME the model.
PlaceholderValues page_values(const Catalog& c, const Selection& s, const PlaceholderValues& overrides) {
  PlaceholderValues values;
  for (const auto& p : c.placeholders) values.set(p.name, p.default_value);
  values.set(std::string(k_model_name), model_name(c, s));
  for (const auto& [name, value] : overrides.entries()) values.set(name, value);
  return values;
}

Badge parse_badge(std::string_view v) {
  if (v == "verified") return Badge::verified;
  if (v == "in-progress") return Badge::in_progress;
  return Badge::unverified;
}

// The value of the first flag named `name` ("" for a switch), or nullopt.
std::optional<std::string> flag_value(const std::vector<std::string>& flags, std::string_view name) {
  for (const auto& f : flags) {
    if (flag_family(f) != name) continue;
    return std::string(util::trim(std::string_view(f).substr(name.size() + (f.size() > name.size() ? 1 : 0))));
  }
  return std::nullopt;
}

std::optional<SpecNotice> spec_notice_of(const std::vector<std::string>& flags) {
  const auto algorithm = flag_value(flags, "--speculative-algorithm");
  if (!algorithm) return std::nullopt;
  const auto mrr = flag_value(flags, "--max-running-requests");
  if (!mrr) return SpecNotice{"max-running-requests-defaults-to-48", *algorithm, std::nullopt};
  return SpecNotice{"max-running-requests-pinned", *algorithm, *mrr};
}

std::vector<std::string> multi_node_header(const Catalog& c, int nnodes, const PlaceholderValues& values) {
  std::vector<std::string> out;
  for (const auto& header : c.rendering().multi_node.header) {
    std::string line = util::replace_all(header, "{{NNODES}}", std::to_string(nnodes));
    line = util::replace_all(line, "{{LAST_NODE_RANK}}", std::to_string(nnodes - 1));
    out.push_back("# " + interpolate(line, values));
  }
  return out;
}

std::vector<std::string> interpolated(const std::vector<Entry>& entries, const PlaceholderValues& values) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(interpolate(e.text, values));
  return out;
}

}  // namespace

Badge badge_of(const Catalog& catalog, const Selection& s, const Cell& cell) {
  if (const std::string* v = catalog.verification.pick(s.options)) return parse_badge(*v);
  if (const std::string* v = cell.verification.pick(s.options)) return parse_badge(*v);
  return Badge::unverified;
}

PageView page_view(const Catalog& catalog, const Selection& s, const PlaceholderValues& overrides) {
  PageView p;
  p.selection = s;
  p.greyed = greyed(catalog, s);
  if (!p.greyed.empty()) {
    if (Selection to = snapped(catalog, s); to != s) p.snapped = std::move(to);
  }
  const PlaceholderValues values = page_values(catalog, s, overrides);
  p.model_name = model_name(catalog, s);
  const Cell* cell = find_cell(catalog, s);
  if (cell == nullptr) {
    p.command = p.docker_command = std::string(k_no_command);
    return p;
  }
  p.cell_found = true;
  p.badge = badge_of(catalog, s, *cell);
  p.nnodes = cell->nnodes;
  if (cell->redirect) {
    p.warn = interpolate(*cell->redirect, values);
    return p;
  }
  if (cell->warn) p.warn = interpolate(*cell->warn, values);
  const Composition composed = compose(catalog, s, *cell);
  p.nnodes = composed.nnodes;
  p.flags = interpolated(composed.flags, values);
  p.env = interpolated(composed.env, values);
  p.hints = interpolated(composed.hints, values);
  p.spec_notice = spec_notice_of(p.flags);
  const auto header = p.nnodes > 1 ? multi_node_header(catalog, p.nnodes, values) : std::vector<std::string>{};
  p.command = plain_command(catalog, p, header);
  p.docker_command = docker_command(catalog, p, header, composed.pd_role, values);
  return p;
}

}  // namespace servebench::recipe
