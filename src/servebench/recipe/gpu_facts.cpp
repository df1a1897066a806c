#include "servebench/recipe/gpu_facts.hpp"

#include "servebench/util/embedded_data.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::recipe {

util::Result<std::string> parse_vendor(std::string_view word) {
  for (std::string_view v : {"nvidia", "amd", "npu"}) {
    if (v == word) return std::string(v);
  }
  return util::failf(util::ErrorKind::bad_input, "vendor '{}' must be nvidia, amd or npu", word);
}

util::Result<std::vector<GpuFacts>> parse_gpu_facts(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  const YAML::Node list = doc->root["gpus"];
  if (!list.IsSequence()) return std::unexpected(util::yaml_error(file, doc->root, "needs a 'gpus' list"));
  std::vector<GpuFacts> out;
  // Non-const copies: yaml-cpp's const operator[] throws on a missing key instead of returning undefined.
  for (YAML::Node item : list) {
    if (!item.IsMap()) return std::unexpected(util::yaml_error(file, item, "a gpus entry must be a mapping"));
    GpuFacts g;
    auto name = util::yaml_string(file, item["name"], "gpu name");
    if (!name) return std::unexpected(name.error());
    g.name = *name;
    auto sm = util::yaml_int(file, item["sm"], "gpu '" + g.name + "' sm");
    if (!sm) return std::unexpected(sm.error());
    g.sm = static_cast<int>(*sm);
    auto family = util::yaml_string(file, item["family"], "gpu '" + g.name + "' family");
    if (!family) return std::unexpected(family.error());
    g.family = *family;
    g.label = item["label"].IsScalar() ? item["label"].Scalar() : g.name;
    if (item["vendor"].IsDefined()) {
      auto word = util::yaml_string(file, item["vendor"], "gpu '" + g.name + "' vendor");
      if (!word) return std::unexpected(word.error());
      auto vendor = parse_vendor(*word);
      if (!vendor) return std::unexpected(util::yaml_error(file, item["vendor"], vendor.error().message));
      g.vendor = *vendor;
    }
    out.push_back(std::move(g));
  }
  return out;
}

util::Result<std::vector<GpuFacts>> load_gpu_facts() {
  auto text = util::read_data_file("hardware.yaml");
  if (!text) return std::unexpected(text.error());
  return parse_gpu_facts(*text, "data/hardware.yaml");
}

const GpuFacts* find_gpu(const std::vector<GpuFacts>& gpus, std::string_view name) {
  for (const auto& g : gpus) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

}  // namespace servebench::recipe
