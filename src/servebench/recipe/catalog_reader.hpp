#pragma once
// Private to the catalog readers (catalog*.cpp): reads the sections of a catalog file in file
// order, keeping the first error. Checks across sections happen in catalog_check.
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "servebench/recipe/catalog.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::recipe::detail {

class CatalogReader {
 public:
  CatalogReader(std::string file, const CatalogData& data) : m_data(data) { m_out.file = std::move(file); }
  util::Result<Catalog> read(const YAML::Node& root);

 private:
  // catalog.cpp
  void read_header(util::YamlFields& top);
  void read_model(const YAML::Node& n);
  void read_hardware(const YAML::Node& n);
  GpuFacts hardware_facts(util::YamlFields& f, const std::string& name, const YAML::Node& n);
  // catalog_dims.cpp
  void read_dims(const YAML::Node& n, DimKind kind, std::string_view section);
  Option read_option(const YAML::Node& n, DimKind kind, const std::string& what);
  void read_overlay_fields(util::YamlFields& f, Option& o);
  // catalog_cells.cpp
  void read_cells(const YAML::Node& n);
  void read_cell(const YAML::Node& item);
  std::vector<std::vector<std::string>> expand_match(const YAML::Node& match, const YAML::Node& cell, util::YamlFields& f) const;
  // catalog_sections.cpp
  void read_placeholders(const YAML::Node& n);
  void read_docker(const YAML::Node& n);
  void read_extra_flags(const YAML::Node& n);
  void read_lint(const YAML::Node& n);
  void read_multi_node_hints(const YAML::Node& n);
  void read_fragments(const YAML::Node& n);
  void read_benchmark(const YAML::Node& n);
  std::vector<std::pair<std::string, std::string>> read_string_map(const YAML::Node& n, std::string_view what);

  template <class F>
  void each(const YAML::Node& list, std::string_view what, F&& f) {
    if (!list.IsDefined() || list.IsNull()) return;
    if (!list.IsSequence()) return fail(util::yaml_error(m_out.file, list, std::string(what) + " must be a list"));
    for (const auto& item : list) f(item);
  }
  void fail(const util::Error& e) {
    if (!m_error) m_error = e;
  }
  void finish(util::YamlFields& f) {
    if (auto r = f.finish(); !r) fail(r.error());
  }
  template <class T>
  T take(util::Result<T> r) {
    if (r) return std::move(*r);
    fail(r.error());
    return T{};
  }

  const CatalogData& m_data;
  Catalog m_out;
  std::optional<util::Error> m_error;
};

}  // namespace servebench::recipe::detail
