// Catalog reader: placeholders, Docker, extra flags, lint policy, multi-node hints, fragments and
// the benchmark plan.
#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/catalog_reader.hpp"
#include "servebench/recipe/placeholder.hpp"

namespace servebench::recipe::detail {

std::vector<std::pair<std::string, std::string>> CatalogReader::read_string_map(const YAML::Node& n, std::string_view what) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!n.IsDefined() || n.IsNull()) return out;
  if (!n.IsMap()) {
    fail(util::yaml_error(m_out.file, n, fmt::format("{} must be a mapping of key to text", what)));
    return out;
  }
  for (const auto& kv : n) out.emplace_back(kv.first.Scalar(), take(util::yaml_string(m_out.file, kv.second, what)));
  return out;
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

void CatalogReader::read_docker(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return;
  auto f = util::YamlFields::of(m_out.file, n, "docker");
  if (!f) return fail(f.error());
  m_out.docker.images = read_string_map(f->node("images"), "docker.images");
  m_out.docker.mounts = f->take(parse_entries(m_out.file, f->node("mounts"), "docker.mounts"));
  m_out.docker.run_command = f->optional_string("run_command");
  if (f->has("host_network_when")) {
    m_out.docker.host_network_when = f->take(parse_conditions(m_out.file, f->node("host_network_when"), "docker.host_network_when"));
  }
  finish(*f);
}

void CatalogReader::read_extra_flags(const YAML::Node& n) {
  each(n, "extra_flags", [&](const YAML::Node& item) {
    auto f = util::YamlFields::of(m_out.file, item, "extra flag");
    if (!f) return fail(f.error());
    ExtraFlag x;
    x.where = util::yaml_where(m_out.file, item);
    x.name = f->required_string("name");
    x.aliases = f->strings("aliases");
    x.takes_value = f->boolean("takes_value", true);
    x.type = f->string("type", x.takes_value ? "str" : "bool");
    x.choices = f->strings("choices");
    x.since = f->required_string("since");
    if (!f->failed() && !x.name.starts_with("-")) f->note_at(item, fmt::format("extra flag '{}' must start with '-'", x.name));
    static const std::vector<std::string> k_types{"str", "int", "float", "bool"};
    if (!f->failed() && std::find(k_types.begin(), k_types.end(), x.type) == k_types.end()) {
      f->note_at(f->node("type"), fmt::format("type '{}' must be str, int, float or bool", x.type));
    }
    finish(*f);
    m_out.extra_flags.push_back(std::move(x));
  });
}

void CatalogReader::read_lint(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return;
  auto f = util::YamlFields::of(m_out.file, n, "lint");
  if (!f) return fail(f.error());
  m_out.lint.strict_on_verified = f->boolean("strict_on_verified", false);
  finish(*f);
}

void CatalogReader::read_multi_node_hints(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return;
  if (!n.IsMap()) return fail(util::yaml_error(m_out.file, n, "multi_node_hints must map hardware names to hint lines"));
  for (const auto& kv : n) {
    m_out.multi_node_hints.emplace_back(kv.first.Scalar(), take(parse_entries(m_out.file, kv.second, "multi_node_hints")));
  }
}

// Fragments are named entry lists that cells and options reuse through YAML anchors; they are
// checked like any entry list and otherwise not read.
void CatalogReader::read_fragments(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return;
  if (!n.IsMap()) return fail(util::yaml_error(m_out.file, n, "fragments must map names to lists"));
  for (const auto& kv : n) take(parse_entries(m_out.file, kv.second, fmt::format("fragment '{}'", kv.first.Scalar())));
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
      s->note_at(item, fmt::format("scenario '{}' needs isl, osl and concurrency", sc.name));
    }
    finish(*s);
    m_out.benchmark.scenarios.push_back(std::move(sc));
  });
  finish(*f);
}

}  // namespace servebench::recipe::detail
