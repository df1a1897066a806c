#pragma once
// The simulator's self-description routes: GET /server_info (SGLang's keys from the deployment,
// the front's own settings, internal_states, recorded_flags and a `sim` block) and GET /v1/models
// (max_model_len = the context length, where clients read it).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "servebench/sim/deployment.hpp"
#include "servebench/sim/server_stats.hpp"

namespace servebench::sim {

// What the front knows beyond the deployment.
struct FrontFacts {
  std::string version;            // servebench's version, reported as SGLang's "version"
  std::string model_path;         // --model-path when given (a name only), else the card name
  std::string served_model_name;  // the model id in responses and /v1/models
  std::string host;
  std::uint16_t port = 0;
  std::int64_t created = 0;  // Unix seconds at start
  double time_scale = 1;     // real seconds per virtual second; 0 = as fast as possible
  bool oracle = false, stamp_events = false, incremental_streaming = false;
  // SGLang flags accepted without effect on the simulation: spelling as given -> value ("" for switches).
  std::vector<std::pair<std::string, std::string>> recorded_flags;
};

// Appends the /server_info object. `facts` is describe(deployment), computed once.
void append_server_info(std::string& out, const ServerFacts& facts, const Deployment& d, const FrontFacts& front,
                        const ServerStats& stats);
// Appends the /v1/models list: one model, with max_model_len.
void append_models(std::string& out, const Deployment& d, const FrontFacts& front);

}  // namespace servebench::sim
