#pragma once
// Private to the simulator's HTTP front: the state its routes share and the functions that
// register each group of routes. Handlers run on IO threads; only the engine thread touches the
// Engine (through EngineLoop), so everything here is immutable or thread-safe.
#include <atomic>
#include <cstdint>

#include "servebench/http/server.hpp"
#include "servebench/sim/http_front.hpp"

namespace servebench::sim {

struct SimServer::State {
  State(Deployment deployment, const FrontOptions& options);

  EngineLoop loop;
  Tokenizer tokenizer;  // the engine's scheme; pure, shared by IO threads
  ServerFacts facts;    // describe(deployment), once
  FrontFacts front;
  GenerationContext generation;
  PlanOptions plan;
  FaultInjector faults;  // wraps the inference routes
  std::atomic<std::uint64_t> next_id{1};

  const Deployment& deployment() const { return loop.deployment(); }
  static std::int64_t unix_now();  // "created" of responses
};

// /v1/completions, /v1/chat/completions, /generate
void add_inference_routes(http::Server& server, SimServer::State& state);
// /tokenize, /detokenize and their /v1/ spellings
void add_tokenize_routes(http::Server& server, SimServer::State& state);
// /health, /health_generate, /v1/models, /server_info, /get_server_info, /model_info, /metrics, /flush_cache
void add_admin_routes(http::Server& server, SimServer::State& state);

}  // namespace servebench::sim
