#include "servebench/recipe/gpu_facts.hpp"

#include <algorithm>

#include "servebench/util/embedded_data.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::recipe {
namespace {

// One `gpus` entry. With `base` (an entry of the same name already known) every key is optional and
// replaces the base's value; without it name, sm and family are required. Keys other than label,
// sm, family and vendor belong to the simulator and are not read.
util::Result<GpuFacts> read_entry(const std::string& file, YAML::Node item, const GpuFacts* base) {
  if (!item.IsMap()) return std::unexpected(util::yaml_error(file, item, "a gpus entry must be a mapping"));
  GpuFacts g = base ? *base : GpuFacts{};
  auto name = util::yaml_string(file, item["name"], "gpu name");
  if (!name) return std::unexpected(name.error());
  g.name = *name;
  if (!base || item["sm"].IsDefined()) {
    auto sm = util::yaml_int(file, item["sm"], "gpu '" + g.name + "' sm");
    if (!sm) return std::unexpected(sm.error());
    g.sm = static_cast<int>(*sm);
  }
  if (!base || item["family"].IsDefined()) {
    auto family = util::yaml_string(file, item["family"], "gpu '" + g.name + "' family");
    if (!family) return std::unexpected(family.error());
    g.family = *family;
  }
  if (item["label"].IsScalar()) {
    g.label = item["label"].Scalar();
  } else if (!base) {
    g.label = g.name;
  }
  if (item["vendor"].IsDefined()) {
    auto word = util::yaml_string(file, item["vendor"], "gpu '" + g.name + "' vendor");
    if (!word) return std::unexpected(word.error());
    auto vendor = parse_vendor(*word);
    if (!vendor) return std::unexpected(util::yaml_error(file, item["vendor"], vendor.error().message));
    g.vendor = *vendor;
  }
  return g;
}

util::Result<YAML::Node> gpu_list(const std::string& yaml_text, const std::string& file, util::YamlDoc& doc) {
  auto loaded = util::load_yaml_string(yaml_text, file);
  if (!loaded) return std::unexpected(loaded.error());
  doc = std::move(*loaded);
  return util::yaml_top_list(doc, "gpus");
}

}  // namespace

util::Result<std::string> parse_vendor(std::string_view word) {
  for (std::string_view v : {"nvidia", "amd", "npu"}) {
    if (v == word) return std::string(v);
  }
  return util::failf(util::ErrorKind::bad_input, "vendor '{}' must be nvidia, amd or npu", word);
}

util::Result<std::vector<GpuFacts>> parse_gpu_facts(const std::string& yaml_text, const std::string& file) {
  util::YamlDoc doc;
  auto list = gpu_list(yaml_text, file, doc);
  if (!list) return std::unexpected(list.error());
  std::vector<GpuFacts> out;
  // Non-const copies: yaml-cpp's const operator[] throws on a missing key instead of returning undefined.
  for (YAML::Node item : *list) {
    auto g = read_entry(file, item, nullptr);
    if (!g) return std::unexpected(g.error());
    out.push_back(std::move(*g));
  }
  return out;
}

util::Result<std::vector<GpuFacts>> merge_gpu_facts(const std::string& base_yaml, const std::string& base_file,
                                                    const std::string& override_yaml, const std::string& override_file) {
  auto out = parse_gpu_facts(base_yaml, base_file);
  if (!out) return std::unexpected(out.error());
  util::YamlDoc doc;
  auto list = gpu_list(override_yaml, override_file, doc);
  if (!list) return std::unexpected(list.error());
  for (YAML::Node item : *list) {
    if (!item.IsMap() || !item["name"].IsScalar()) {
      return std::unexpected(util::yaml_error(override_file, item, "a gpu needs a name"));
    }
    const std::string name = item["name"].Scalar();
    auto known = std::find_if(out->begin(), out->end(), [&](const GpuFacts& g) { return g.name == name; });
    auto g = read_entry(override_file, item, known == out->end() ? nullptr : &*known);
    if (!g) return std::unexpected(g.error());
    if (known != out->end()) {
      *known = std::move(*g);
    } else {
      out->push_back(std::move(*g));
    }
  }
  return out;
}

util::Result<std::vector<GpuFacts>> load_gpu_facts() {
  const auto built_in = util::embedded_data_file("hardware.yaml");
  if (!built_in) return util::failf(util::ErrorKind::failed, "data/hardware.yaml is not built in");
  auto override_text = util::read_override_data_file("hardware.yaml");
  if (!override_text) return std::unexpected(override_text.error());
  if (!*override_text) return parse_gpu_facts(std::string(*built_in), "data/hardware.yaml");
  return merge_gpu_facts(std::string(*built_in), "data/hardware.yaml", **override_text,
                         "$SERVEBENCH_DATA_DIR/hardware.yaml");
}

const GpuFacts* find_gpu(const std::vector<GpuFacts>& gpus, std::string_view name) {
  for (const auto& g : gpus) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

}  // namespace servebench::recipe
