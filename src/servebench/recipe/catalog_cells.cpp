// Catalog reader: cells. A cell's `match` names one option per hardware/match dimension, or a list
// of options, which makes one cell per combination (in the order written).
#include <fmt/format.h>

#include "servebench/recipe/catalog_reader.hpp"

namespace servebench::recipe::detail {

void CatalogReader::read_cells(const YAML::Node& n) {
  if (!n.IsSequence() || n.size() == 0) fail(util::yaml_error(m_out.file, n, "catalog needs 'cells': a non-empty list"));
  each(n, "cells", [&](const YAML::Node& item) { read_cell(item); });
}

void CatalogReader::read_cell(const YAML::Node& item) {
  auto f = util::YamlFields::of(m_out.file, item, "cell");
  if (!f) return fail(f.error());
  Cell c;
  c.where = util::yaml_where(m_out.file, item);
  c.nnodes = static_cast<int>(f->integer("nnodes", 1));
  c.env = f->take(parse_entries(m_out.file, f->node("env"), "cell env"));
  c.flags = f->take(parse_entries(m_out.file, f->node("flags"), "cell flags"));
  c.hints = f->take(parse_entries(m_out.file, f->node("hints"), "cell hints"));
  c.warn = f->optional_string("warn");
  c.redirect = f->optional_string("redirect");
  c.verification = f->take(parse_text_cases(m_out.file, f->node("verification"), "cell verification"));
  c.pd_role = f->string("pd_role");
  c.notes = f->string("notes");
  if (!c.pd_role.empty() && c.pd_role != "prefill" && c.pd_role != "decode") {
    f->note_at(f->node("pd_role"), fmt::format("pd_role '{}' must be prefill or decode", c.pd_role));
  }
  const auto keys = expand_match(f->node("match"), item, *f);
  finish(*f);
  for (const auto& key : keys) {
    Cell copy = c;
    copy.match = key;
    m_out.cells.push_back(std::move(copy));
  }
}

// Dims are read before cells, so a cell's match is checked here: one valid option (or a list of
// them) per hardware/match dim, nothing else.
std::vector<std::vector<std::string>> CatalogReader::expand_match(const YAML::Node& match, const YAML::Node& cell,
                                                                  util::YamlFields& f) const {
  const std::string& file = m_out.file;
  if (!match.IsMap()) {
    f.note_at(match.IsDefined() ? match : cell, "cell needs 'match': a mapping of dimension to option id");
    return {};
  }
  for (const auto& kv : match) {
    const auto i = m_out.dim_index(kv.first.Scalar());
    if (!i || m_out.dims[*i].kind == DimKind::overlay) {
      f.note_at(kv.first, fmt::format("cell match names '{}', which is not a hardware or match dimension", kv.first.Scalar()));
      return {};
    }
  }
  std::vector<std::vector<std::string>> keys{{}};
  for (const auto& d : m_out.dims) {
    if (d.kind == DimKind::overlay) continue;
    const YAML::Node v = match[d.id];
    if (!v.IsDefined()) {
      f.note_at(match, fmt::format("cell match needs '{}'", d.id));
      return {};
    }
    std::vector<YAML::Node> items;
    if (v.IsSequence()) {
      for (const auto& x : v) items.push_back(x);
    } else {
      items.push_back(v);
    }
    std::vector<std::string> ids;
    for (const auto& item : items) {
      const std::string id = f.take(util::yaml_string(file, item, "cell match value"));
      if (!f.failed() && d.find(id) == nullptr) f.note_at(item, fmt::format("'{}' is not an option of '{}'", id, d.id));
      ids.push_back(id);
    }
    std::vector<std::vector<std::string>> next;
    for (const auto& key : keys) {
      for (const auto& id : ids) {
        next.push_back(key);
        next.back().push_back(id);
      }
    }
    keys = std::move(next);
  }
  return f.failed() ? std::vector<std::vector<std::string>>{} : keys;
}

}  // namespace servebench::recipe::detail
