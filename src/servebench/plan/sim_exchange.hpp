#pragma once
// The simulator's self-description routes in process: GET /server_info (and /get_server_info) and
// GET /v1/models answered from the engine exactly as serve-sim answers them over HTTP, so `plan`
// learns an arm's facts, limits and vocabulary through the same engine adapter the campaign uses.
// Any other route answers 404.
#include <string>

#include "servebench/http/exchange.hpp"
#include "servebench/sim/engine.hpp"
#include "servebench/sim/server_info.hpp"

namespace servebench::plan {

class SimExchange final : public http::Exchange {
 public:
  // `engine` must outlive the exchange.
  SimExchange(const sim::Engine& engine, sim::FrontFacts front);

  util::Result<http::Response> send(const http::Request& request, std::chrono::milliseconds timeout) override;
  const std::string& base_url() const override { return m_url; }

 private:
  const sim::Engine& m_engine;
  sim::FrontFacts m_front;
  sim::ServerFacts m_facts;
  std::string m_url = "plan://virtual";
};

}  // namespace servebench::plan
