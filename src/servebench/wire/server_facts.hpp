#pragma once
// What a server says about itself, typed once. The engine adapters fill ServerFacts from the
// engine's info routes; the simulator's own `sim` block of /server_info (docs/formats.md) is read
// here and nowhere else, whether it comes from a live server or from a saved server_facts.json.
#include <cstdint>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "servebench/wire/disaggregation_facts.hpp"

namespace servebench::wire {

struct SpeculativeFacts {
  std::string algorithm;
  std::optional<std::int64_t> num_steps, eagle_topk, num_draft_tokens;
};

// serve-sim's `sim` block: the modeled deployment and how its virtual clock runs.
struct SimFacts {
  std::string hardware, model;                                // card names
  std::string engine;  // whose physics it modelled (--sim-engine: sglang, vllm, llamacpp); empty = SGLang (older blocks)
  std::optional<std::int64_t> vocab_size, gpus, context_length;
  std::optional<double> time_scale;  // real seconds per simulated second (0: as fast as possible)
  std::optional<bool> oracle;        // the oracle routes are on
  boost::json::object block;         // the block as the simulator wrote it (saved verbatim)
};

struct ServerFacts {
  std::string engine, version, model;
  std::optional<std::int64_t> context_length, kv_pool_tokens, max_running_requests;
  std::optional<SpeculativeFacts> speculative;
  std::optional<SimFacts> sim;  // only when the server is the simulator
  std::optional<DisaggregationFacts> disaggregation;  // a part or the router of a disaggregated deployment
  std::string raw_json;         // {"<route>": <body as read>, ...}
};

// The facts as server_facts.json and bench results carry them (`sim` excluded: it is saved as its
// own block); what the engine did not say is null.
boost::json::object to_json(const ServerFacts& f);
// The facts back from that object (a saved server_facts.json); absent or null keys stay empty,
// `sim` and `raw_json` are not part of it. Cannot fail.
ServerFacts server_facts_from_json(const boost::json::object& o);

// The typed view of a `sim` block; keys the block lacks stay empty. Cannot fail.
SimFacts read_sim_facts(const boost::json::object& block);
// The `sim` block of a /server_info body; nullopt when the body has none (every real engine).
std::optional<SimFacts> sim_facts_of_server_info(const boost::json::object& server_info);

}  // namespace servebench::wire
