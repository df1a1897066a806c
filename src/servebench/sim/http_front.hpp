#pragma once
// SimServer: the simulated SGLang server — http::Server routes in front of an EngineLoop.
// Routes (docs/sim.md "HTTP front"): POST /v1/completions, /v1/chat/completions, /generate,
// /tokenize, /detokenize (and /v1/ spellings); GET /v1/models, /health, /health_generate,
// /server_info, /get_server_info, /model_info, /metrics; GET|POST /flush_cache. Unknown routes
// answer 404, bodies over the limit 413, bad input 400 with a JSON error naming the problem, and
// with --api-key a request without the key 401.
#include <cstdint>
#include <memory>
#include <string>

#include "servebench/http/server.hpp"
#include "servebench/sim/deployment.hpp"
#include "servebench/sim/engine_loop.hpp"
#include "servebench/sim/fault_injection.hpp"
#include "servebench/sim/generation.hpp"
#include "servebench/sim/request_plan.hpp"
#include "servebench/sim/server_info.hpp"

namespace servebench::sim {

struct FrontOptions {
  http::ServerOptions server;  // host, port (0: ephemeral), IO threads, body limit
  LoopOptions loop;
  FrontFacts facts;  // version, names, recorded flags; host/port/time scale are filled in
  OracleMode oracle = OracleMode::off;
  StampEvents stamp = StampEvents::off;
  StreamOutput generate_output = StreamOutput::cumulative;
  bool default_include_usage = false;
  FaultPlan faults;  // --sim-fault: misbehaviour on the inference routes (empty: none)
  // --api-key: every route but /health* and /metrics answers 401 without `Authorization: Bearer
  // <key>`; --admin-api-key: /flush_cache wants that key instead (as SGLang). "" = open.
  std::string api_key, admin_api_key;
};

class SimServer {
 public:
  SimServer(Deployment deployment, FrontOptions options);
  ~SimServer();  // stop()
  SimServer(const SimServer&) = delete;
  SimServer& operator=(const SimServer&) = delete;

  // Binds and starts the engine thread; fails (unreachable) naming the address it could not bind.
  util::Result<void> start();
  // Closes every connection (open streams' requests are cancelled), then stops the engine thread.
  void stop();

  std::uint16_t port() const;
  std::string base_url() const;

  struct State;

 private:
  std::unique_ptr<State> m_state;
  http::Server m_server;
};

}  // namespace servebench::sim
