// Catalog reader: hardware entries, match and overlay dimensions and their options.
#include <fmt/format.h>

#include "servebench/recipe/catalog_reader.hpp"

namespace servebench::recipe::detail {

void CatalogReader::read_dims(const YAML::Node& n, DimKind kind, std::string_view section) {
  each(n, section, [&](const YAML::Node& item) {
    auto f = util::YamlFields::of(m_out.file, item, std::string(section) + " entry");
    if (!f) return fail(f.error());
    Dim d;
    d.id = f->required_string("id");
    d.kind = kind;
    d.title = f->string("title", d.id);
    d.where = util::yaml_where(m_out.file, item);
    if (kind == DimKind::overlay) {
      d.default_option = f->take(parse_text_cases(m_out.file, f->node("default"), fmt::format("default of '{}'", d.id)));
      if (f->has("show_when")) d.show_when = f->take(parse_conditions(m_out.file, f->node("show_when"), "show_when"));
    }
    const std::string what = fmt::format("option of '{}'", d.id);
    each(f->node("options"), what, [&](const YAML::Node& o) { d.options.push_back(read_option(o, kind, what)); });
    if (d.options.empty() && !f->failed()) f->note_at(item, fmt::format("dimension '{}' needs options", d.id));
    finish(*f);
    m_out.dims.push_back(std::move(d));
  });
}

void CatalogReader::read_overlay_fields(util::YamlFields& f, Option& o) {
  const auto cases = [&](const char* key) {
    return f.take(parse_entry_cases(m_out.file, f.node(key), fmt::format("option '{}' {}", o.id, key)));
  };
  o.flags = cases("flags");
  o.env = cases("env");
  o.strip_prefixes = cases("strip_prefixes");
  o.hints = cases("hints");
}

Option CatalogReader::read_option(const YAML::Node& n, DimKind kind, const std::string& what) {
  Option o;
  o.where = util::yaml_where(m_out.file, n);
  auto f = util::YamlFields::of(m_out.file, n, what);
  if (!f) {
    fail(f.error());
    return o;
  }
  o.id = f->required_string(kind == DimKind::hardware ? "name" : "id");
  if (kind == DimKind::hardware) {
    o.gpus_per_node = static_cast<int>(f->integer("gpus_per_node", 0));
    if (!f->failed() && o.gpus_per_node <= 0) {
      f->note_at(n, fmt::format("hardware '{}' needs gpus_per_node (a positive integer)", o.id));
    }
    o.gpu = hardware_facts(*f, o.id, n);
    o.label = o.gpu.label;
  } else {
    o.label = f->string("label", o.id);
    o.subtitle = f->string("subtitle");
    o.disable = f->take(parse_rules(m_out.file, f->node("disable"), fmt::format("option '{}' disable rule", o.id)));
    if (f->has("show_when")) o.show_when = f->take(parse_conditions(m_out.file, f->node("show_when"), "show_when"));
    o.validated_on = f->strings("validated_on");
  }
  if (kind == DimKind::overlay) read_overlay_fields(*f, o);
  finish(*f);
  return o;
}

}  // namespace servebench::recipe::detail
