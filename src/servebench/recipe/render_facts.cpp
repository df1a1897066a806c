#include "servebench/recipe/render_facts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/gpu_facts.hpp"
#include "servebench/util/embedded_data.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::recipe {
namespace {

using util::Result;

Result<std::vector<std::pair<std::string, std::string>>> string_map(const std::string& file, const YAML::Node& n,
                                                                    std::string_view what) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!n.IsDefined()) return out;
  if (!n.IsMap()) return std::unexpected(util::yaml_error(file, n, fmt::format("{} must be a mapping", what)));
  for (const auto& kv : n) {
    auto v = util::yaml_string(file, kv.second, what);
    if (!v) return std::unexpected(v.error());
    out.emplace_back(kv.first.Scalar(), *v);
  }
  return out;
}

Result<MultiNodeFacts> read_multi_node(const std::string& file, const YAML::Node& n) {
  MultiNodeFacts m;
  if (!n.IsDefined()) return m;
  auto f = util::YamlFields::of(file, n, "multi_node");
  if (!f) return std::unexpected(f.error());
  m.after_last = f->strings("after_last");
  m.otherwise_after = f->strings("otherwise_after");
  m.flags = f->strings("flags");
  m.header = f->strings("header");
  if (auto done = f->finish(); !done) return std::unexpected(done.error());
  return m;
}

Result<EngineRendering> read_engine(const std::string& file, const std::string& name, const YAML::Node& n) {
  EngineRendering e;
  auto dialect = flags::parse_dialect(name);
  if (!dialect) return std::unexpected(util::yaml_error(file, n, dialect.error().message));
  e.engine = *dialect;
  auto f = util::YamlFields::of(file, n, fmt::format("engine '{}'", name));
  if (!f) return std::unexpected(f.error());
  e.command = f->required_string("command");
  e.docker_image = f->required_string("docker_image");
  e.docker_command = f->string("docker_command");
  e.port_flag = f->string("port_flag", e.port_flag);
  e.default_port = f->required_string("default_port");
  e.pd_ports = f->take(string_map(file, f->node("pd_ports"), "pd_ports"));
  e.multi_node = f->take(read_multi_node(file, f->node("multi_node")));
  if (auto done = f->finish(); !done) return std::unexpected(done.error());
  return e;
}

Result<void> read_docker(const std::string& file, const YAML::Node& n, RenderFacts& out) {
  auto f = util::YamlFields::of(file, n, "docker");
  if (!f) return std::unexpected(f.error());
  out.hf_cache_mount = f->required_string("hf_cache_mount");
  for (const auto& kv : f->node("vendors")) {
    auto v = util::YamlFields::of(file, kv.second, "vendor " + kv.first.Scalar());
    if (!v) return std::unexpected(v.error());
    auto vendor = parse_vendor(kv.first.Scalar());
    if (!vendor) return std::unexpected(util::yaml_error(file, kv.first, vendor.error().message));
    out.vendors.push_back({*vendor, v->strings("lines"), v->boolean("hf_cache", true)});
    if (auto done = v->finish(); !done) return done;
  }
  for (const auto& kv : f->node("fabric")) {
    std::vector<std::string> items;
    for (const auto& item : kv.second) {
      auto line = util::yaml_string(file, item, "fabric line");
      if (!line) return std::unexpected(line.error());
      items.push_back(*line);
    }
    out.fabric.emplace_back(kv.first.Scalar(), std::move(items));
  }
  return f->finish();
}

}  // namespace

const EngineRendering* RenderFacts::engine(flags::Dialect d) const {
  const auto it = std::find_if(engines.begin(), engines.end(), [&](const EngineRendering& e) { return e.engine == d; });
  return it == engines.end() ? nullptr : &*it;
}

const VendorDocker* RenderFacts::vendor(std::string_view name) const {
  const auto it = std::find_if(vendors.begin(), vendors.end(), [&](const VendorDocker& v) { return v.vendor == name; });
  return it == vendors.end() ? nullptr : &*it;
}

const std::vector<std::string>* RenderFacts::fabric_for(std::string_view key) const {
  const auto it = std::find_if(fabric.begin(), fabric.end(), [&](const auto& f) { return f.first == key; });
  return it == fabric.end() ? nullptr : &it->second;
}

Result<RenderFacts> parse_render_facts(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto f = util::YamlFields::of(file, doc->root, "recipe engines");
  if (!f) return std::unexpected(f.error());
  RenderFacts out;
  for (const auto& kv : f->node("engines")) {
    auto e = read_engine(file, kv.first.Scalar(), kv.second);
    if (!e) return std::unexpected(e.error());
    out.engines.push_back(std::move(*e));
  }
  if (auto r = read_docker(file, f->node("docker"), out); !r) return std::unexpected(r.error());
  if (auto done = f->finish(); !done) return std::unexpected(done.error());
  return out;
}

Result<RenderFacts> load_render_facts() {
  auto text = util::read_data_file("recipe_engines.yaml");
  if (!text) return std::unexpected(text.error());
  return parse_render_facts(*text, "data/recipe_engines.yaml");
}

}  // namespace servebench::recipe
