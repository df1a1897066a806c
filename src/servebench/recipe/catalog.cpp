#include "servebench/recipe/catalog.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/catalog_check.hpp"
#include "servebench/recipe/placeholder.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::recipe {
namespace {

using util::Result;

// Reads the catalog's sections in file order; checks across sections happen in catalog_check.
class CatalogReader {
 public:
  explicit CatalogReader(std::string file) { m_out.file = std::move(file); }
  Result<Catalog> read(const YAML::Node& root);

 private:
  void read_header(util::YamlFields& top);
  void read_model(const YAML::Node& n);
  void read_hardware(const YAML::Node& n);
  void read_dims(const YAML::Node& n, DimKind kind, std::string_view section);
  Option read_option(const YAML::Node& n, DimKind kind, const std::string& what);
  void read_cells(const YAML::Node& n);
  void resolve_match(const YAML::Node& match, const YAML::Node& cell, Cell& c, util::YamlFields& f) const;
  void read_placeholders(const YAML::Node& n);
  void read_benchmark(const YAML::Node& n);
  template <class F>
  void each(const YAML::Node& list, std::string_view what, F&& f);
  void fail(const util::Error& e) {
    if (!m_error) m_error = e;
  }
  void finish(util::YamlFields& f) {
    if (auto r = f.finish(); !r) fail(r.error());
  }

  Catalog m_out;
  std::optional<util::Error> m_error;
};

template <class F>
void CatalogReader::each(const YAML::Node& list, std::string_view what, F&& f) {
  if (!list.IsDefined() || list.IsNull()) return;
  if (!list.IsSequence()) return fail(util::yaml_error(m_out.file, list, fmt::format("{} must be a list", what)));
  for (const auto& item : list) f(item);
}

Result<Catalog> CatalogReader::read(const YAML::Node& root) {
  auto top = util::YamlFields::of(m_out.file, root, "catalog");
  if (!top) return std::unexpected(top.error());
  read_header(*top);
  if (top->failed()) return std::unexpected(top->finish().error());
  if (top->has("model")) read_model(top->node("model"));
  read_hardware(top->node("hardware"));
  read_dims(top->node("match_dims"), DimKind::match, "match_dims");
  read_dims(top->node("overlay_dims"), DimKind::overlay, "overlay_dims");
  read_placeholders(top->node("placeholders"));
  read_cells(top->node("cells"));
  read_benchmark(top->node("benchmark"));
  finish(*top);
  if (m_error) return std::unexpected(*m_error);
  return std::move(m_out);
}

void CatalogReader::read_header(util::YamlFields& top) {
  const std::string schema = top.required_string("schema");
  if (!top.failed() && schema != k_catalog_schema) {
    fail(util::yaml_error(m_out.file, top.node("schema"),
                          fmt::format("schema must be '{}', got '{}'", k_catalog_schema, schema)));
  }
  m_out.name = top.required_string("name");
  m_out.title = top.string("title", m_out.name);
  const std::string engine = top.string("engine", "sglang");
  if (auto d = flags::parse_dialect(engine)) {
    m_out.engine = *d;
  } else {
    fail(util::yaml_error(m_out.file, top.node("engine"), d.error().message));
  }
  m_out.launcher = top.required_string("launcher");
}

void CatalogReader::read_model(const YAML::Node& n) {
  auto f = util::YamlFields::of(m_out.file, n, "model");
  if (!f) return fail(f.error());
  m_out.model.card = f->string("card");
  const YAML::Node names = f->node("names");
  if (names.IsDefined() && !names.IsMap()) {
    fail(util::yaml_error(m_out.file, names, "model.names must map option ids (or 'default') to model names"));
  } else if (names.IsDefined()) {
    for (const auto& kv : names) {
      m_out.model.names.emplace_back(kv.first.Scalar(),
                                     f->take(util::yaml_string(m_out.file, kv.second, "model name")));
    }
  }
  if (f->has("facts")) {
    auto facts = util::YamlFields::of(m_out.file, f->node("facts"), "model.facts");
    if (!facts) return fail(facts.error());
    m_out.model.facts.attention_heads = facts->optional_integer("attention_heads");
    m_out.model.facts.kv_heads = facts->optional_integer("kv_heads");
    m_out.model.facts.moe_intermediate_size = facts->optional_integer("moe_intermediate_size");
    m_out.model.facts.experts = facts->optional_integer("experts");
    finish(*facts);
  }
  finish(*f);
}

void CatalogReader::read_hardware(const YAML::Node& n) {
  Dim hw;
  hw.id = "hw";
  hw.title = "Hardware";
  hw.kind = DimKind::hardware;
  if (!n.IsSequence() || n.size() == 0) {
    fail(util::yaml_error(m_out.file, n, "catalog needs 'hardware': a list of {name, gpus_per_node}"));
  }
  each(n, "hardware", [&](const YAML::Node& item) {
    hw.options.push_back(read_option(item, DimKind::hardware, "hardware entry"));
  });
  m_out.dims.insert(m_out.dims.begin(), std::move(hw));
}

void CatalogReader::read_dims(const YAML::Node& n, DimKind kind, std::string_view section) {
  each(n, section, [&](const YAML::Node& item) {
    auto f = util::YamlFields::of(m_out.file, item, std::string(section) + " entry");
    if (!f) return fail(f.error());
    Dim d;
    d.id = f->required_string("id");
    d.kind = kind;
    d.title = f->string("title", d.id);
    if (kind == DimKind::overlay) d.default_option = f->string("default");
    const std::string what = fmt::format("option of '{}'", d.id);
    each(f->node("options"), what, [&](const YAML::Node& o) { d.options.push_back(read_option(o, kind, what)); });
    if (d.options.empty() && !f->failed()) fail(util::yaml_error(m_out.file, item, fmt::format("dimension '{}' needs options", d.id)));
    if (kind == DimKind::overlay && d.default_option.empty() && !d.options.empty()) d.default_option = d.options[0].id;
    finish(*f);
    m_out.dims.push_back(std::move(d));
  });
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
  o.label = f->string("label", o.id);
  if (kind == DimKind::hardware) {
    o.gpus_per_node = static_cast<int>(f->integer("gpus_per_node", 0));
    if (!f->failed() && o.gpus_per_node <= 0) {
      f->note(util::yaml_error(m_out.file, n, fmt::format("hardware '{}' needs gpus_per_node (a positive integer)", o.id)));
    }
  } else {
    o.subtitle = f->string("subtitle");
    o.disable = f->take(parse_rules(m_out.file, f->node("disable"), fmt::format("option '{}' disable rule", o.id)));
    o.validated_on = f->strings("validated_on");
  }
  if (kind == DimKind::overlay) {
    o.flags = f->strings("flags");
    o.env = f->strings("env");
    o.strip_prefixes = f->strings("strip_prefixes");
    o.hints = f->strings("hints");
  }
  finish(*f);
  return o;
}

void CatalogReader::read_cells(const YAML::Node& n) {
  if (!n.IsSequence() || n.size() == 0) fail(util::yaml_error(m_out.file, n, "catalog needs 'cells': a non-empty list"));
  each(n, "cells", [&](const YAML::Node& item) {
    auto f = util::YamlFields::of(m_out.file, item, "cell");
    if (!f) return fail(f.error());
    Cell c;
    c.where = util::yaml_where(m_out.file, item);
    c.nnodes = static_cast<int>(f->integer("nnodes", 1));
    c.env = f->strings("env");
    c.flags = f->strings("flags");
    c.notes = f->string("notes");
    resolve_match(f->node("match"), item, c, *f);
    finish(*f);
    m_out.cells.push_back(std::move(c));
  });
}

// Dims are read before cells, so a cell's match is checked here: exactly one valid option per
// hardware/match dim, nothing else.
void CatalogReader::resolve_match(const YAML::Node& match, const YAML::Node& cell, Cell& c, util::YamlFields& f) const {
  const std::string& file = m_out.file;
  if (!match.IsMap()) {
    return f.note(util::yaml_error(file, match.IsDefined() ? match : cell, "cell needs 'match': a mapping of dimension to option id"));
  }
  for (const auto& kv : match) {
    const auto i = m_out.dim_index(kv.first.Scalar());
    if (!i || m_out.dims[*i].kind == DimKind::overlay) {
      return f.note(util::yaml_error(file, kv.first, fmt::format("cell match names '{}', which is not a hardware or match dimension", kv.first.Scalar())));
    }
  }
  for (const auto& d : m_out.dims) {
    if (d.kind == DimKind::overlay) continue;
    const YAML::Node v = match[d.id];
    if (!v.IsDefined()) return f.note(util::yaml_error(file, match, fmt::format("cell match needs '{}'", d.id)));
    const std::string id = f.take(util::yaml_string(file, v, "cell match value"));
    if (!f.failed() && d.find(id) == nullptr) {
      return f.note(util::yaml_error(file, v, fmt::format("'{}' is not an option of '{}'", id, d.id)));
    }
    c.match.push_back(id);
  }
}

void CatalogReader::read_placeholders(const YAML::Node& n) {
  m_out.placeholders = {{std::string(k_model_name), "model name for the selected options", ""},
                        {std::string(k_host_ip), "address the server binds", "0.0.0.0"},
                        {std::string(k_port), "port the server listens on", "30000"}};
  if (!n.IsDefined() || n.IsNull()) return;
  if (!n.IsMap()) return fail(util::yaml_error(m_out.file, n, "placeholders must map NAME to {label, default}"));
  for (const auto& kv : n) {
    const std::string name = kv.first.Scalar();
    if (name == k_model_name) {
      return fail(util::yaml_error(m_out.file, kv.first, "MODEL_NAME comes from model.names and cannot be declared"));
    }
    auto f = util::YamlFields::of(m_out.file, kv.second, fmt::format("placeholder '{}'", name));
    if (!f) return fail(f.error());
    Placeholder p{name, f->string("label", name), f->string("default")};
    finish(*f);
    auto same = std::find_if(m_out.placeholders.begin(), m_out.placeholders.end(), [&](const auto& q) { return q.name == name; });
    if (same != m_out.placeholders.end()) {
      *same = std::move(p);
    } else {
      m_out.placeholders.push_back(std::move(p));
    }
  }
}

void CatalogReader::read_benchmark(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return;
  auto f = util::YamlFields::of(m_out.file, n, "benchmark");
  if (!f) return fail(f.error());
  m_out.benchmark.dataset = f->string("dataset", m_out.benchmark.dataset);
  m_out.benchmark.num_prompts = f->string("num_prompts", m_out.benchmark.num_prompts);
  each(f->node("scenarios"), "benchmark.scenarios", [&](const YAML::Node& item) {
    auto s = util::YamlFields::of(m_out.file, item, "scenario");
    if (!s) return fail(s.error());
    BenchScenario sc;
    sc.name = s->required_string("name");
    sc.isl = s->integer("isl", 0);
    sc.osl = s->integer("osl", 0);
    sc.concurrency = s->integers("concurrency");
    if (!s->failed() && (sc.isl <= 0 || sc.osl <= 0 || sc.concurrency.empty())) {
      s->note(util::yaml_error(m_out.file, item, fmt::format("scenario '{}' needs isl, osl and concurrency", sc.name)));
    }
    finish(*s);
    m_out.benchmark.scenarios.push_back(std::move(sc));
  });
  finish(*f);
}

}  // namespace

const Option* Dim::find(std::string_view option_id) const {
  for (const auto& o : options) {
    if (o.id == option_id) return &o;
  }
  return nullptr;
}

std::optional<std::size_t> Catalog::dim_index(std::string_view id) const {
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].id == id) return i;
  }
  return std::nullopt;
}

std::size_t Catalog::key_dims() const {
  std::size_t n = 0;
  for (const auto& d : dims) n += d.kind != DimKind::overlay ? 1 : 0;
  return n;
}

util::Result<Catalog> parse_catalog(const std::string& yaml_text, const std::string& file,
                                    const std::vector<GpuFacts>& gpus) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto catalog = CatalogReader(file).read(doc->root);
  if (!catalog) return catalog;
  if (auto checked = check_catalog(*catalog, gpus); !checked) return std::unexpected(checked.error());
  return catalog;
}

util::Result<Catalog> load_catalog(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  if (!text) return util::fail(util::ErrorKind::bad_input, text.error().message);
  auto gpus = load_gpu_facts();
  if (!gpus) return std::unexpected(gpus.error());
  return parse_catalog(*text, path.string(), *gpus);
}

}  // namespace servebench::recipe
