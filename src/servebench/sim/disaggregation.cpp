#include "servebench/sim/disaggregation.hpp"

#include <array>

namespace servebench::sim {
namespace {

constexpr std::array<std::string_view, 6> k_backends = {"mooncake", "nixl", "ascend", "fake", "mori", "mooncake_tcp"};

}  // namespace

std::string_view to_string(DisaggregationMode m) {
  switch (m) {
    case DisaggregationMode::none: return "null";
    case DisaggregationMode::prefill: return "prefill";
    case DisaggregationMode::decode: return "decode";
  }
  return "null";
}

util::Result<DisaggregationMode> parse_disaggregation_mode(std::string_view s) {
  if (s == "null" || s.empty()) return DisaggregationMode::none;
  if (s == "prefill") return DisaggregationMode::prefill;
  if (s == "decode") return DisaggregationMode::decode;
  return util::failf(util::ErrorKind::bad_input, "--disaggregation-mode '{}': expected null, prefill or decode", s);
}

util::Result<void> validate(const DisaggregationConfig& c) {
  bool known = false;
  for (const auto b : k_backends) known = known || b == c.transfer_backend;
  if (!known) {
    return util::failf(util::ErrorKind::bad_input,
                       "--disaggregation-transfer-backend '{}': expected mooncake, nixl, ascend, fake, mori or "
                       "mooncake_tcp",
                       c.transfer_backend);
  }
  if (c.bootstrap_port < 1 || c.bootstrap_port > 65535) {
    return util::failf(util::ErrorKind::bad_input, "--disaggregation-bootstrap-port {} must be in 1..65535",
                       c.bootstrap_port);
  }
  return {};
}

}  // namespace servebench::sim
