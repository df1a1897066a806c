#pragma once
// Prefill/decode disaggregation as a server reports it, typed once: SGLang's `disaggregation_mode`
// server argument of a part (prefill or decode), the simulated router's `pd_router` block with its
// parts' URLs, and a simulated part's KV-transfer model from its `sim` block (docs/sim.md
// "Disaggregation"). Also the router's /server_info body, composed from its parts' bodies.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

namespace servebench::wire {

struct KvTransferFacts {
  std::string backend;                  // --disaggregation-transfer-backend
  std::optional<double> bytes_per_token;          // the whole model's KV of one token
  std::optional<double> bytes_per_token_per_gpu;  // what one decode GPU receives per token
  std::optional<double> link_gbs;                 // per GPU, derated; 0 when no bytes move (fake)
  std::optional<double> latency_us;               // per transfer
  // The modelled transfer of an `isl`-token prompt on an idle link, in ms; nullopt without the figures.
  std::optional<double> time_ms(double isl) const;
};

struct DisaggregationFacts {
  std::string mode;                                // "prefill", "decode" or "router"
  std::vector<std::string> prefill_urls, decode_urls;  // a router's parts
  std::optional<KvTransferFacts> kv_transfer;      // a simulated part's (a router: its first decode part's)
};

// From a /server_info body: nullopt for a server that is not part of a disaggregated deployment.
std::optional<DisaggregationFacts> disaggregation_of_server_info(const boost::json::object& info);
// As server_facts.json keeps it (under "disaggregation"), and back; from_json cannot fail.
boost::json::object to_json(const DisaggregationFacts& d);
DisaggregationFacts disaggregation_from_json(const boost::json::object& o);

// One part of a router and the /server_info body it answered ("" when it did not answer).
struct RouterPart {
  std::string url, server_info;
};
// The router's /server_info: its first decode part's keys (the pool, the running cap and the model
// that bound a request's life, and the `sim` block), with `disaggregation_mode` "router", a
// `pd_router` block {"prefill": [url…], "decode": [url…]} and every part's body under "prefill" and
// "decode" (as SGLang's router nests them). A body that is not a JSON object becomes null.
std::string encode_router_server_info(std::span<const RouterPart> prefill, std::span<const RouterPart> decode);

}  // namespace servebench::wire
