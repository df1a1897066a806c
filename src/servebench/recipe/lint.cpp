#include "servebench/recipe/lint.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "servebench/recipe/lint_command.hpp"
#include "servebench/recipe/render.hpp"
#include "servebench/recipe/selection.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using util::Result;

struct Source {
  std::string origin, where;  // where: set only when a single entry wrote the flag
};

// Where a flag came from: the composed entries whose first word names it.
Source source_of(const flags::FlagRegistry& registry, const Composition& composed, const std::string& flag) {
  std::vector<std::string> origins;
  std::string where;
  for (const auto& e : composed.flags) {
    auto words = util::shell_split(e.text);
    if (!words || words->empty()) continue;
    std::string word = words->front().substr(0, words->front().find('='));
    const flags::FlagSpec* spec = registry.find(word);
    if ((spec != nullptr ? spec->name : word) != flag) continue;
    if (std::find(origins.begin(), origins.end(), e.origin) == origins.end()) origins.push_back(e.origin);
    where = e.where;
  }
  return {util::join(origins, " + "), origins.size() == 1 ? where : ""};
}

class Linter {
 public:
  Linter(const Catalog& c, const LintFacts& f, const flags::FlagRegistry& r) : m_catalog(c), m_facts(f), m_registry(r) {}
  LintReport run();

 private:
  void check_selection(const Selection& s, const Cell& cell);
  void check_keys();
  void add(const Cell* cell, const Selection& s, Finding f);

  const Catalog& m_catalog;
  const LintFacts& m_facts;
  const flags::FlagRegistry& m_registry;
  LintReport m_report;
  struct Found {
    const Cell* cell;
    Finding finding;
    std::set<const Cell*> cells;  // every cell that shows an overlay finding
  };
  std::vector<Found> m_found;
  std::map<std::tuple<const Cell*, std::string, std::string, std::string>, std::size_t> m_index;
};

// A finding written by one option (usually an overlay) is the option's fault: it is reported once, at the
// option, with the number of other cells that show it; everything else once per cell.
void Linter::add(const Cell* cell, const Selection& s, Finding f) {
  const bool overlay_fault =
      (f.origin.starts_with("overlay ") || f.origin.starts_with("option ")) && f.origin.find(" + ") == std::string::npos;
  const auto key = std::make_tuple(overlay_fault ? nullptr : cell, f.rule, f.flag, f.message + (overlay_fault ? f.origin : ""));
  if (auto it = m_index.find(key); it != m_index.end()) {
    m_found[it->second].cells.insert(cell);
    return;
  }
  f.selection = to_string(m_catalog, s);
  if (f.where.empty()) f.where = cell != nullptr ? cell->where : m_catalog.file;
  m_index.emplace(key, m_found.size());
  m_found.push_back({cell, std::move(f), {cell}});
}

void Linter::check_selection(const Selection& s, const Cell& cell) {
  ++m_report.selections_checked;
  const Option& hw = chosen(m_catalog, s, 0);
  for (std::size_t i = 0; i < m_catalog.dims.size(); ++i) {
    const Option& o = chosen(m_catalog, s, i);
    if (o.validated_on.empty() || std::find(o.validated_on.begin(), o.validated_on.end(), hw.id) != o.validated_on.end()) continue;
    const Dim& d = m_catalog.dims[i];
    add(&cell, s, {"unvalidated-hardware", Severity::warning, "", o.where, "",
                   fmt::format("{} {}={}", d.kind == DimKind::overlay ? "overlay" : "option", d.id, o.id),
                   fmt::format("{}={} is validated only on {}", d.id, o.id, util::join(o.validated_on, ", "))});
  }
  auto rendered = render_unchecked(m_catalog, s, Target::engine);
  if (!rendered) return add(&cell, s, {"render", Severity::error, "", "", "", "", rendered.error().message});
  auto command = normalize(m_catalog, *rendered);
  if (!command) return add(&cell, s, {"render", Severity::error, "", "", "", "", command.error().message});
  const GpuFacts* gpu = find_gpu(m_facts.gpus, hw.id);
  SB_CHECK(gpu != nullptr);  // catalog_check validated hardware names against the same file
  const Composition composed = compose(m_catalog, s, cell);
  for (auto& f : lint_command({*command, m_catalog, cell, *gpu, hw.gpus_per_node}, m_facts)) {
    Source source = f.flag.empty() ? Source{} : source_of(m_registry, composed, f.flag);
    add(&cell, s, {f.rule, f.severity, "", std::move(source.where), f.flag, std::move(source.origin), std::move(f.message)});
  }
}

// Keys (hardware × match options) without a cell, and cells no selection can reach.
void Linter::check_keys() {
  std::set<const Cell*> reachable;
  for (const Selection& s : all_selections(m_catalog)) {
    const Cell* cell = find_cell(m_catalog, s);
    const bool enabled = disable_reasons(m_catalog, s).empty();
    if (cell != nullptr && enabled) reachable.insert(cell);
    if (cell == nullptr && enabled && overlays_changed(m_catalog, s) == 0) {
      add(nullptr, s, {"missing-cell", Severity::warning, "", "", "", "", "enabled selection has no cell; add one or a disable rule"});
    }
  }
  for (const Cell& cell : m_catalog.cells) {
    if (reachable.contains(&cell)) continue;
    const Selection s = cell_selection(m_catalog, cell);
    add(&cell, s, {"unreachable-cell", Severity::warning, "", "", "", "",
                   fmt::format("every selection of this cell is disabled: {}", util::join(disable_reasons(m_catalog, s), "; "))});
  }
}

LintReport Linter::run() {
  check_keys();
  auto selections = all_selections(m_catalog);
  std::stable_sort(selections.begin(), selections.end(), [&](const Selection& a, const Selection& b) {
    return overlays_changed(m_catalog, a) < overlays_changed(m_catalog, b);
  });
  for (const Selection& s : selections) {
    const Cell* cell = find_cell(m_catalog, s);
    if (cell != nullptr && disable_reasons(m_catalog, s).empty()) check_selection(s, *cell);
  }
  // Catalog-level findings (no cell) first, then cells in catalog order.
  const auto rank = [&](const Cell* c) { return c == nullptr ? -1 : static_cast<long>(c - m_catalog.cells.data()); };
  std::stable_sort(m_found.begin(), m_found.end(), [&](const Found& a, const Found& b) { return rank(a.cell) < rank(b.cell); });
  for (auto& found : m_found) {
    if (found.cells.size() > 1) found.finding.message += fmt::format(" (also in {} more cell(s))", found.cells.size() - 1);
    m_report.findings.push_back(std::move(found.finding));
  }
  return std::move(m_report);
}

}  // namespace

std::size_t LintReport::count(Severity s) const {
  return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity == s; }));
}

Result<LintReport> lint(const Catalog& catalog, const LintFacts& facts) {
  auto registry = flags::flag_registry(catalog.engine);
  if (!registry) return std::unexpected(registry.error());
  return Linter(catalog, facts, **registry).run();
}

}  // namespace servebench::recipe
