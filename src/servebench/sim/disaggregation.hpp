#pragma once
// Prefill/decode disaggregation as SGLang configures it (--disaggregation-*): a prefill server computes
// a prompt's KV and its first token, then hands the KV to a decode server, which continues from it.
// Only the launch-time choices live here; the transfer's cost is kv_transfer.hpp.
#include <string>
#include <string_view>

#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class DisaggregationMode { none, prefill, decode };

// SGLang's --disaggregation-mode spelling: "null", "prefill", "decode".
std::string_view to_string(DisaggregationMode m);
// Accepts "null", "prefill", "decode"; bad_input naming the flag otherwise.
util::Result<DisaggregationMode> parse_disaggregation_mode(std::string_view s);

struct DisaggregationConfig {
  DisaggregationMode mode = DisaggregationMode::none;
  // mooncake | nixl | ascend | fake | mori | mooncake_tcp; `fake` moves no bytes (SGLang's test backend),
  // so the simulator charges no transfer time for it: the same deployment without the transfer.
  std::string transfer_backend = "mooncake";
  int bootstrap_port = 8998;  // recorded (the simulator's parts need no bootstrap server)
  std::string ib_device;      // recorded
  bool decode_enable_radix_cache = false;  // SGLang's decode servers keep no prefix cache unless asked
  bool moves_bytes() const { return transfer_backend != "fake"; }
};

// The backend is one of SGLang's, the port in 1..65535 (bad_input naming the flag).
util::Result<void> validate(const DisaggregationConfig& c);

}  // namespace servebench::sim
