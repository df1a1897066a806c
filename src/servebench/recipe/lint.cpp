#include "servebench/recipe/lint.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "servebench/recipe/compose.hpp"
#include "servebench/recipe/greying.hpp"
#include "servebench/recipe/lint_command.hpp"
#include "servebench/recipe/page.hpp"
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
  std::vector<std::string> origins, wheres;
  for (const auto& e : composed.flags) {
    const std::string word(flag_family(e.text));
    const flags::FlagSpec* spec = registry.find(word);
    if ((spec != nullptr ? spec->name : word) != flag) continue;
    if (std::find(origins.begin(), origins.end(), e.origin) == origins.end()) origins.push_back(e.origin);
    wheres.push_back(e.where);
  }
  return {util::join(origins, " + "), wheres.size() == 1 ? wheres.front() : ""};
}

// Rules that encode engine knowledge rather than facts of the engine's CLI or of the catalog.
bool knowledge_rule(const std::string& rule) {
  return rule == "conflict" || rule == "arch-backend" || rule.starts_with("divisibility-");
}

class Linter {
 public:
  Linter(const Catalog& c, const LintFacts& f, const flags::FlagRegistry& r) : m_catalog(c), m_facts(f), m_registry(r) {}
  LintReport run();

 private:
  void check_selection(const Selection& s, const Cell& cell);
  void check_validated_on(const Selection& s, const Cell& cell);
  void check_spellings(const Selection& s, const Cell& cell, const Composition& composed);
  void check_strip(const Selection& s, const Cell& cell);
  bool known_flag(std::string_view name) const;
  void check_keys();
  void check_extra_flags();
  void add(const Cell* cell, const Selection& s, Finding f, const std::string& context = "");

  const Catalog& m_catalog;
  const LintFacts& m_facts;
  const flags::FlagRegistry& m_registry;
  LintReport m_report;
  struct Found {
    const Cell* cell;  // of the first selection that showed it
    Finding finding;
    std::vector<std::string> contexts;  // what differs by selection, each once
  };
  std::vector<Found> m_found;
  std::map<std::tuple<std::string, Severity, std::string, std::string, std::string>, std::size_t> m_index;
};

void Linter::add(const Cell* cell, const Selection& s, Finding f, const std::string& context) {
  if (f.where.empty()) f.where = cell != nullptr ? cell->where : m_catalog.file;
  const std::string text = to_string(m_catalog, s);
  const auto key = std::make_tuple(f.rule, f.severity, f.flag, f.where, f.message);
  auto it = m_index.find(key);
  if (it == m_index.end()) {
    f.selection = text;
    it = m_index.emplace(key, m_found.size()).first;
    m_found.push_back({cell, std::move(f), {}});
  }
  Found& found = m_found[it->second];
  auto& selections = found.finding.selections;
  if (std::find(selections.begin(), selections.end(), text) == selections.end()) selections.push_back(text);
  if (!context.empty() && std::find(found.contexts.begin(), found.contexts.end(), context) == found.contexts.end()) {
    found.contexts.push_back(context);
  }
}

void Linter::check_validated_on(const Selection& s, const Cell& cell) {
  const Option& hw = chosen(m_catalog, s, 0);
  for (std::size_t i = 0; i < m_catalog.dims.size(); ++i) {
    const Option& o = chosen(m_catalog, s, i);
    if (o.validated_on.empty() || std::find(o.validated_on.begin(), o.validated_on.end(), hw.id) != o.validated_on.end()) continue;
    const Dim& d = m_catalog.dims[i];
    add(&cell, s, {"unvalidated-hardware", Severity::warning, "", {}, o.where, "",
                   fmt::format("{} {}={}", d.kind == DimKind::overlay ? "overlay" : "option", d.id, o.id),
                   fmt::format("{}={} is validated only on {}", d.id, o.id, util::join(o.validated_on, ", "))});
  }
}

bool Linter::known_flag(std::string_view name) const {
  return m_registry.find_exact(name) != nullptr || m_catalog.extra_flag(name) != nullptr;
}

// strip_prefixes entries of contributing overlays that name no flag strip nothing.
void Linter::check_strip(const Selection& s, const Cell& cell) {
  for (std::size_t i = m_catalog.key_dims(); i < m_catalog.dims.size(); ++i) {
    if (!contributes(m_catalog, s, i)) continue;
    const Option& o = chosen(m_catalog, s, i);
    const EntryList* strip = o.strip_prefixes.pick(s.options);
    if (strip == nullptr) continue;
    for (const auto& e : *strip) {
      if (known_flag(e.text)) continue;
      add(&cell, s, {"unknown-flag", Severity::error, "", {}, e.where, e.text,
                     fmt::format("overlay {}={} strip_prefixes", m_catalog.dims[i].id, o.id),
                     fmt::format("strip_prefixes names {}, which is not a {} flag: it replaces nothing", e.text,
                                 flags::to_string(m_catalog.engine))});
    }
  }
}

// A flag the engine takes only as an abbreviation of another (argparse): spell it out.
void Linter::check_spellings(const Selection& s, const Cell& cell, const Composition& composed) {
  for (const auto& e : composed.flags) {
    const std::string word(flag_family(e.text));
    if (m_registry.find_exact(word) != nullptr) continue;
    const flags::FlagSpec* spec = m_registry.find(word);
    if (spec == nullptr) continue;
    add(&cell, s, {"abbreviated-flag", Severity::warning, "", {}, e.where, spec->name, e.origin,
                   fmt::format("{} is read as {} (an abbreviation the parser accepts); write {}", word, spec->name, spec->name)});
  }
}

// Extra flags the engine's flag list already has are stale declarations.
void Linter::check_extra_flags() {
  for (const auto& x : m_catalog.extra_flags) {
    const flags::FlagSpec* spec = m_registry.find_exact(x.name);
    if (spec == nullptr) continue;
    add(nullptr, cell_selection(m_catalog, m_catalog.cells.front()),
        {"extra-flag-known", Severity::warning, "", {}, x.where, spec->name, "extra_flags",
         fmt::format("{} (since {}) is in the {} flag list now; remove it from extra_flags", x.name, x.since,
                     flags::to_string(m_catalog.engine))});
  }
}

void Linter::check_selection(const Selection& s, const Cell& cell) {
  ++m_report.selections_checked;
  check_validated_on(s, cell);
  auto rendered = render_unchecked(m_catalog, s, Target::engine);
  if (!rendered) return add(&cell, s, {"render", Severity::error, "", {}, "", "", "", rendered.error().message});
  auto command = normalize(m_catalog, *rendered);
  if (!command) return add(&cell, s, {"render", Severity::error, "", {}, "", "", "", command.error().message});
  const Option& hw = chosen(m_catalog, s, 0);
  const Composition composed = compose(m_catalog, s, cell);
  check_spellings(s, cell, composed);
  check_strip(s, cell);
  const bool verified = badge_of(m_catalog, s, cell) == Badge::verified && !m_catalog.lint.strict_on_verified;
  for (auto& f : lint_command({*command, m_catalog, composed.nnodes, hw.gpu, hw.gpus_per_node}, m_facts)) {
    Source source = f.flag.empty() ? Source{} : source_of(m_registry, composed, f.flag);
    if (verified && f.severity == Severity::error && knowledge_rule(f.rule)) {
      f.severity = Severity::warning;
      f.message += "; a warning because the catalog marks this selection verified (lint.strict_on_verified: true makes it an error)";
    }
    add(&cell, s, {f.rule, f.severity, "", {}, std::move(source.where), f.flag, std::move(source.origin), std::move(f.message)},
        f.context);
  }
}

// Keys (hardware × match options) without a cell, and cells no selection can reach.
void Linter::check_keys() {
  std::set<const Cell*> reachable_cells;
  for (const Selection& s : all_selections(m_catalog)) {
    const Cell* cell = find_cell(m_catalog, s);
    if (cell != nullptr && reachable(m_catalog, s)) reachable_cells.insert(cell);
    if (cell == nullptr && disable_reasons(m_catalog, s).empty() && overlays_changed(m_catalog, s) == 0) {
      add(nullptr, s, {"missing-cell", Severity::warning, "", {}, "", "", "", "no rule greys this key out but no cell serves it; add a cell or a disable rule"});
    }
  }
  for (const Cell& cell : m_catalog.cells) {
    if (reachable_cells.contains(&cell)) continue;
    const Selection s = cell_selection(m_catalog, cell);
    add(&cell, s, {"unreachable-cell", Severity::warning, "", {}, "", "", "",
                   fmt::format("every selection of this cell is greyed out: {}", util::join(disable_reasons(m_catalog, s), "; "))});
  }
}

LintReport Linter::run() {
  check_extra_flags();
  check_keys();
  auto selections = all_selections(m_catalog);
  std::stable_sort(selections.begin(), selections.end(), [&](const Selection& a, const Selection& b) {
    return overlays_changed(m_catalog, a) < overlays_changed(m_catalog, b);
  });
  for (const Selection& s : selections) {
    const Cell* cell = find_cell(m_catalog, s);
    if (cell != nullptr && !cell->redirect && reachable(m_catalog, s)) check_selection(s, *cell);
  }
  // Catalog-level findings (no cell) first, then cells in catalog order.
  const auto rank = [&](const Cell* c) { return c == nullptr ? -1 : static_cast<long>(c - m_catalog.cells.data()); };
  std::stable_sort(m_found.begin(), m_found.end(), [&](const Found& a, const Found& b) { return rank(a.cell) < rank(b.cell); });
  for (auto& found : m_found) {
    if (!found.contexts.empty()) found.finding.message += "; " + util::join(found.contexts, "; ");
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
