#include "servebench/sim/sim_overrides.hpp"

#include <fmt/format.h>

#include "servebench/sim/card_reader.hpp"
#include "servebench/sim/hardware_card.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {
namespace {

std::optional<Nanos> micros_or(CardReader& r, const std::string& key) {
  if (!r.has(key)) return std::nullopt;
  return r.micros(key);
}

std::optional<double> number_if(CardReader& r, const std::string& key) {
  if (!r.has(key)) return std::nullopt;
  return r.number(key);
}

double us(Nanos n) { return static_cast<double>(n.count()) / 1000.0; }

}  // namespace

util::Result<SimOverrides> parse_sim_overrides(const std::string& yaml_text, const std::string& file) {
  auto doc = util::load_yaml_string(yaml_text, file);
  if (!doc) return std::unexpected(doc.error());
  auto r = CardReader::of(file, doc->root, "sim overrides");
  if (!r) return std::unexpected(r.error());
  SimOverrides o;
  o.hardware = r->text_or("hardware", "");
  o.model = r->text_or("model", "");
  if (auto e = r->child("efficiency")) {
    auto& x = o.efficiency;
    x.bandwidth = number_if(*e, "bandwidth");
    x.mfu = number_if(*e, "mfu");
    x.link = number_if(*e, "link");
    x.step_overhead = micros_or(*e, "step_overhead_us");
    x.eager_layer = micros_or(*e, "eager_layer_us");
    x.per_sequence = micros_or(*e, "per_sequence_us");
    x.per_request = micros_or(*e, "per_request_us");
    x.routing_skew = number_if(*e, "routing_skew");
    r->absorb(*e);
  }
  if (auto done = r->finish(); !done) return std::unexpected(done.error());
  const auto& x = o.efficiency;
  for (auto [name, v] : {std::pair{"bandwidth", x.bandwidth}, std::pair{"mfu", x.mfu}, std::pair{"link", x.link}}) {
    if (v && (*v <= 0 || *v > 1))
      return util::failf(util::ErrorKind::bad_input, "{}: efficiency.{} must be in (0, 1], got {}", file, name, *v);
  }
  for (auto [name, v] : {std::pair{"step_overhead_us", x.step_overhead}, std::pair{"eager_layer_us", x.eager_layer},
                         std::pair{"per_sequence_us", x.per_sequence}, std::pair{"per_request_us", x.per_request}}) {
    if (v && v->count() < 0) return util::failf(util::ErrorKind::bad_input, "{}: efficiency.{} must be >= 0", file, name);
  }
  if (x.routing_skew && (*x.routing_skew < 0 || *x.routing_skew > 4))
    return util::failf(util::ErrorKind::bad_input, "{}: efficiency.routing_skew must be in [0, 4]", file);
  return o;
}

util::Result<SimOverrides> read_sim_overrides(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  return parse_sim_overrides(*text, path);
}

std::string to_yaml(const SimOverrides& o, const std::string& comment) {
  std::string out;
  for (const auto line : util::split(std::string_view(comment), '\n')) out += fmt::format("# {}\n", line);
  if (!o.hardware.empty()) out += fmt::format("hardware: {}\n", o.hardware);
  if (!o.model.empty()) out += fmt::format("model: {}\n", o.model);
  std::vector<std::string> items;
  const auto& x = o.efficiency;
  const auto num = [&](const char* k, std::optional<double> v) { if (v) items.push_back(fmt::format("{}: {:.6g}", k, *v)); };
  const auto mic = [&](const char* k, std::optional<Nanos> v) { if (v) items.push_back(fmt::format("{}: {:.6g}", k, us(*v))); };
  num("bandwidth", x.bandwidth);
  num("mfu", x.mfu);
  num("link", x.link);
  mic("step_overhead_us", x.step_overhead);
  mic("eager_layer_us", x.eager_layer);
  mic("per_sequence_us", x.per_sequence);
  mic("per_request_us", x.per_request);
  num("routing_skew", x.routing_skew);
  out += "efficiency: {" + util::join(items, ", ") + "}\n";
  return out;
}

void apply(const EfficiencyOverrides& o, EfficiencyOverrides& c) {
  if (o.bandwidth) c.bandwidth = o.bandwidth;
  if (o.mfu) c.mfu = o.mfu;
  if (o.link) c.link = o.link;
  if (o.step_overhead) c.step_overhead = o.step_overhead;
  if (o.eager_layer) c.eager_layer = o.eager_layer;
  if (o.per_sequence) c.per_sequence = o.per_sequence;
  if (o.per_request) c.per_request = o.per_request;
  if (o.routing_skew) c.routing_skew = o.routing_skew;
}

}  // namespace servebench::sim
