#include "servebench/sim/hardware_card.hpp"

#include "servebench/sim/card_reader.hpp"
#include "servebench/util/embedded_data.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {
namespace {

Nanos micros(double us) { return Nanos{static_cast<Nanos::rep>(us * 1000.0)}; }

Efficiency read_efficiency(CardReader& r) {
  Efficiency e;
  e.bandwidth = r.number("bandwidth");
  e.mfu = r.number("mfu");
  e.link = r.number("link");
  e.step_overhead = micros(r.number("step_overhead_us"));
  e.eager_layer = micros(r.number("eager_layer_us"));
  e.all_reduce_base = micros(r.number("all_reduce_base_us"));
  e.hop_latency = micros(r.number("hop_latency_us"));
  e.runtime_reserve_gib = r.number("runtime_reserve_gib");
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
  (void)r->number_or("tdp_w", 0);
  if (auto e = r->child("efficiency")) {
    h.efficiency = read_efficiency(*e);
    r->absorb(*e);
  }
  if (auto done = r->finish(); !done) return std::unexpected(done.error());
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

double HardwareCard::tensor_flops(int weight_dtype_bytes) const {
  const double tf = weight_dtype_bytes <= 1 && fp8_tflops > 0 ? fp8_tflops : bf16_tflops;
  return tf * 1e12;
}

util::Result<std::vector<HardwareCard>> parse_hardware_cards(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  const YAML::Node list = doc->root["gpus"];
  if (!list.IsSequence()) return std::unexpected(util::yaml_error(file, doc->root, "needs a 'gpus' list"));
  std::vector<HardwareCard> out;
  for (const auto& item : list) {
    auto card = read_card(file, item);
    if (!card) return std::unexpected(card.error());
    out.push_back(std::move(*card));
  }
  return out;
}

util::Result<HardwareCard> load_hardware_card(const std::string& name) {
  auto text = util::read_data_file("hardware.yaml");
  if (!text) return std::unexpected(text.error());
  auto cards = parse_hardware_cards(*text, "data/hardware.yaml");
  if (!cards) return std::unexpected(cards.error());
  std::vector<std::string> names;
  for (auto& c : *cards) {
    if (c.name == name) return std::move(c);
    names.push_back(c.name);
  }
  return util::failf(util::ErrorKind::bad_input, "unknown hardware '{}'; known: {}", name, util::join(names, ", "));
}

}  // namespace servebench::sim
