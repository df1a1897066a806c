#include "servebench/sim/hardware_card.hpp"

#include <algorithm>

#include "servebench/sim/card_reader.hpp"
#include "servebench/util/embedded_data.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {
namespace {

Efficiency read_efficiency(CardReader& r) {
  Efficiency e;
  e.bandwidth = r.number("bandwidth");
  e.mfu = r.number("mfu");
  e.link = r.number("link");
  e.step_overhead = r.micros("step_overhead_us");
  e.eager_layer = r.micros("eager_layer_us");
  e.all_reduce_base = r.micros("all_reduce_base_us");
  e.hop_latency = r.micros("hop_latency_us");
  e.runtime_reserve_gib = r.number("runtime_reserve_gib");
  e.gemm_half_tokens = r.number_or("gemm_half_tokens", e.gemm_half_tokens);
  e.per_sequence = r.micros_or("per_sequence_us", 0);
  e.per_request = r.micros_or("per_request_us", 0);
  return e;
}

util::Result<HardwareCard> read_card(const std::string& file, const YAML::Node& node) {
  auto r = CardReader::of(file, node, "gpu");
  if (!r) return std::unexpected(r.error());
  HardwareCard h;
  h.name = r->text("name");
  h.label = r->text_or("label", h.name);
  h.sm = static_cast<int>(r->integer("sm"));
  (void)r->text_or("family", "");
  h.memory_gb = r->number("memory_gb");
  h.usable_gib = r->number_or("usable_gib", 0);
  h.hbm_tbs = r->number("hbm_tbs");
  h.bf16_tflops = r->number("bf16_tflops");
  h.fp8_tflops = r->number("fp8_tflops");
  h.fp4_tflops = r->number_or("fp4_tflops", 0);
  h.nvlink_gbs = r->number("nvlink_gbs");
  h.pcie_gbs = r->number("pcie_gbs");
  h.internode_gbs = r->number_or("internode_gbs", h.internode_gbs);
  h.internode_latency_us = r->number_or("internode_latency_us", h.internode_latency_us);
  (void)r->number_or("tdp_w", 0);
  if (auto e = r->child("efficiency")) {
    h.efficiency = read_efficiency(*e);
    r->absorb(*e);
  }
  if (auto done = r->finish(); !done) return std::unexpected(done.error());
  if (!(h.efficiency.gemm_half_tokens >= 0 && h.efficiency.gemm_half_tokens <= 1e6)) {
    return util::failf(util::ErrorKind::bad_input, "{}: gpu '{}': efficiency.gemm_half_tokens must be in [0, 1e6]", file,
                       h.name);
  }
  if (h.hbm_tbs <= 0 || h.bf16_tflops <= 0 || h.memory_gb <= 0 || h.pcie_gbs <= 0) {
    return util::failf(util::ErrorKind::bad_input, "{}: gpu '{}': memory, bandwidth, bf16 and pcie must be > 0", file,
                       h.name);
  }
  return h;
}

}  // namespace

double HardwareCard::memory_bytes() const {
  return usable_gib > 0 ? usable_gib * 1024.0 * 1024.0 * 1024.0 : memory_gb * 1e9;
}

double HardwareCard::link_bytes_per_s() const { return (nvlink_gbs > 0 ? nvlink_gbs / 2.0 : pcie_gbs) * 1e9; }

double HardwareCard::tensor_flops(GemmDtype gemm) const {
  if (gemm == GemmDtype::fp4 && fp4_tflops > 0) return fp4_tflops * 1e12;
  if (gemm == GemmDtype::fp8 && fp8_tflops > 0) return fp8_tflops * 1e12;
  return bf16_tflops * 1e12;
}

util::Result<std::vector<HardwareCard>> parse_hardware_cards(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  const auto list = util::yaml_top_list(*doc, "gpus");
  if (!list) return std::unexpected(list.error());
  std::vector<HardwareCard> out;
  for (const auto& item : *list) {
    auto card = read_card(file, item);
    if (!card) return std::unexpected(card.error());
    out.push_back(std::move(*card));
  }
  return out;
}

util::Result<std::vector<HardwareCard>> merge_hardware_cards(const std::string& base_yaml, const std::string& base_file,
                                                             const std::string& override_yaml,
                                                             const std::string& override_file) {
  auto base = util::load_yaml_string(base_yaml, base_file);
  if (!base) return std::unexpected(base.error());
  auto over = util::load_yaml_string(override_yaml, override_file);
  if (!over) return std::unexpected(over.error());
  const auto base_list = util::yaml_top_list(*base, "gpus");
  if (!base_list) return std::unexpected(base_list.error());
  const auto extra_list = util::yaml_top_list(*over, "gpus");
  if (!extra_list) return std::unexpected(extra_list.error());
  const YAML::Node& list = *base_list;
  const YAML::Node& extra = *extra_list;
  std::vector<YAML::Node> merged;
  std::vector<std::string> files;
  for (const auto& item : list) merged.push_back(YAML::Clone(item)), files.push_back(base_file);
  for (const auto& item : extra) {
    if (!item.IsMap() || !item["name"]) return std::unexpected(util::yaml_error(override_file, item, "a gpu needs a name"));
    const auto name = item["name"].as<std::string>();
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const YAML::Node& n) { return n.IsMap() && n["name"] && n["name"].as<std::string>() == name; });
    if (it == merged.end()) {
      merged.push_back(YAML::Clone(item));
      files.push_back(override_file);
      continue;
    }
    for (const auto& kv : item) {
      const auto key = kv.first.as<std::string>();
      if (key == "efficiency" && kv.second.IsMap() && (*it)[key].IsMap()) {
        for (const auto& e : kv.second) (*it)[key][e.first.as<std::string>()] = YAML::Clone(e.second);
      } else {
        (*it)[key] = YAML::Clone(kv.second);
      }
    }
    files[static_cast<std::size_t>(it - merged.begin())] = override_file;
  }
  std::vector<HardwareCard> out;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    auto card = read_card(files[i], merged[i]);
    if (!card) return std::unexpected(card.error());
    out.push_back(std::move(*card));
  }
  return out;
}

util::Result<HardwareCard> load_hardware_card(const std::string& name) {
  const auto built_in = util::embedded_data_file("hardware.yaml");
  auto override_text = util::read_override_data_file("hardware.yaml");
  if (!override_text) return std::unexpected(override_text.error());
  if (!built_in) return util::failf(util::ErrorKind::failed, "data/hardware.yaml is not built in");
  auto cards = *override_text ? merge_hardware_cards(std::string(*built_in), "data/hardware.yaml", **override_text,
                                                     "$SERVEBENCH_DATA_DIR/hardware.yaml")
                              : parse_hardware_cards(std::string(*built_in), "data/hardware.yaml");
  if (!cards) return std::unexpected(cards.error());
  std::vector<std::string> names;
  for (auto& c : *cards) {
    if (c.name == name) return std::move(c);
    names.push_back(c.name);
  }
  return util::failf(util::ErrorKind::bad_input, "unknown hardware '{}'; known: {}", name, util::join(names, ", "));
}

}  // namespace servebench::sim
