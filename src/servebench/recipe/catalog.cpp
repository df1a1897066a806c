#include "servebench/recipe/catalog.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/catalog_check.hpp"
#include "servebench/recipe/catalog_reader.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace detail {

using util::Result;

Result<Catalog> CatalogReader::read(const YAML::Node& root) {
  auto top = util::YamlFields::of(m_out.file, root, "catalog");
  if (!top) return std::unexpected(top.error());
  read_header(*top);
  if (top->failed()) return std::unexpected(top->finish().error());
  read_fragments(top->node("fragments"));
  if (top->has("model")) read_model(top->node("model"));
  read_hardware(top->node("hardware"));
  read_dims(top->node("match_dims"), DimKind::match, "match_dims");
  read_dims(top->node("overlay_dims"), DimKind::overlay, "overlay_dims");
  read_placeholders(top->node("placeholders"));
  m_out.verification = take(parse_text_cases(m_out.file, top->node("verification"), "verification"));
  read_multi_node_hints(top->node("multi_node_hints"));
  read_docker(top->node("docker"));
  read_extra_flags(top->node("extra_flags"));
  read_lint(top->node("lint"));
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
  m_out.render = m_data.render;
  const EngineRendering* rendering = m_out.render.engine(m_out.engine);
  if (rendering == nullptr && !top.has("launcher")) {
    fail(util::yaml_error(m_out.file, top.node("engine"),
                          fmt::format("engine '{}' has no entry in data/recipe_engines.yaml; set 'launcher'", engine)));
  }
  m_out.launcher = top.string("launcher", rendering != nullptr ? rendering->command : "");
}

void CatalogReader::read_model(const YAML::Node& n) {
  auto f = util::YamlFields::of(m_out.file, n, "model");
  if (!f) return fail(f.error());
  m_out.model.card = f->string("card");
  m_out.model.names = read_string_map(f->node("names"), "model.names");
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

// A GPU of data/hardware.yaml keeps its facts unless the entry restates them; any other GPU must
// bring its own (family, and sm for NVIDIA).
GpuFacts CatalogReader::hardware_facts(util::YamlFields& f, const std::string& name, const YAML::Node& n) {
  const GpuFacts* known = find_gpu(m_data.gpus, name);
  GpuFacts g = known != nullptr ? *known : GpuFacts{name, name, "", 0, "nvidia"};
  g.label = f.string("label", g.label);
  if (auto v = f.optional_string("vendor")) {
    auto vendor = parse_vendor(*v);
    if (vendor) g.vendor = *vendor;
    if (!vendor) f.note_at(f.node("vendor"), vendor.error().message);
  }
  g.family = f.string("family", g.family);
  g.sm = static_cast<int>(f.integer("sm", g.sm));
  if (known == nullptr && !f.failed() && (g.family.empty() || (g.vendor == "nvidia" && g.sm == 0))) {
    std::vector<std::string> names;
    for (const auto& gpu : m_data.gpus) names.push_back(gpu.name);
    f.note_at(n, fmt::format("unknown hardware '{}'; data/hardware.yaml has: {} (or declare vendor, family and, for "
                             "NVIDIA, sm here)", name, util::join(names, ", ")));
  }
  return g;
}

void CatalogReader::read_hardware(const YAML::Node& n) {
  Dim hw;
  hw.id = "hw";
  hw.title = "Hardware";
  hw.kind = DimKind::hardware;
  hw.where = util::yaml_where(m_out.file, n);
  if (!n.IsSequence() || n.size() == 0) {
    fail(util::yaml_error(m_out.file, n, "catalog needs 'hardware': a list of {name, gpus_per_node}"));
  }
  each(n, "hardware", [&](const YAML::Node& item) {
    hw.options.push_back(read_option(item, DimKind::hardware, "hardware entry"));
  });
  m_out.dims.insert(m_out.dims.begin(), std::move(hw));
}

}  // namespace detail

std::string_view to_string(Badge b) {
  switch (b) {
    case Badge::verified: return "verified";
    case Badge::in_progress: return "in-progress";
    case Badge::unverified: return "unverified";
  }
  return "unverified";
}

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
  return static_cast<std::size_t>(std::count_if(dims.begin(), dims.end(), [](const Dim& d) { return d.kind != DimKind::overlay; }));
}

const ExtraFlag* Catalog::extra_flag(std::string_view flag) const {
  for (const auto& x : extra_flags) {
    if (x.name == flag || std::find(x.aliases.begin(), x.aliases.end(), flag) != x.aliases.end()) return &x;
  }
  return nullptr;
}

const EngineRendering& Catalog::rendering() const {
  const EngineRendering* r = render.engine(engine);
  if (r == nullptr) {
    static const EngineRendering k_none{};
    return k_none;
  }
  return *r;
}

util::Result<CatalogData> load_catalog_data() {
  auto gpus = load_gpu_facts();
  if (!gpus) return std::unexpected(gpus.error());
  auto render = load_render_facts();
  if (!render) return std::unexpected(render.error());
  return CatalogData{std::move(*gpus), std::move(*render)};
}

util::Result<Catalog> parse_catalog(const std::string& yaml_text, const std::string& file, const CatalogData& data) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto catalog = detail::CatalogReader(file, data).read(doc->root);
  if (!catalog) return catalog;
  if (auto checked = check_catalog(*catalog); !checked) return std::unexpected(checked.error());
  return catalog;
}

util::Result<Catalog> load_catalog(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  if (!text) return util::fail(util::ErrorKind::bad_input, text.error().message);
  auto data = load_catalog_data();
  if (!data) return std::unexpected(data.error());
  return parse_catalog(*text, path.string(), *data);
}

}  // namespace servebench::recipe
