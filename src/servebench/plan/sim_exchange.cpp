#include "servebench/plan/sim_exchange.hpp"

namespace servebench::plan {

SimExchange::SimExchange(const sim::Engine& engine, sim::FrontFacts front)
    : m_engine(engine), m_front(std::move(front)), m_facts(sim::describe(engine.deployment())) {}

util::Result<http::Response> SimExchange::send(const http::Request& request, std::chrono::milliseconds) {
  http::Response r{200, {}, "application/json"};
  const std::string& target = request.target;
  if (request.method == http::Method::get && (target == "/server_info" || target == "/get_server_info")) {
    sim::ServerStats stats;
    stats.counters = m_engine.counters();
    stats.ready = true;
    sim::append_server_info(r.body, m_facts, m_engine.deployment(), m_front, stats);
  } else if (request.method == http::Method::get && target == "/v1/models") {
    sim::append_models(r.body, m_engine.deployment(), m_front);
  } else {
    r.status = 404;
    r.body = R"({"error":"not served in virtual time"})";
  }
  return r;
}

}  // namespace servebench::plan
