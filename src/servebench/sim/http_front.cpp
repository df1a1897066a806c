#include "servebench/sim/http_front.hpp"

#include "servebench/sim/route_errors.hpp"
#include "servebench/sim/routes.hpp"

namespace servebench::sim {
SimServer::State::State(Deployment deployment, const FrontOptions& options)
    : loop(std::move(deployment), options.loop),
      tokenizer(Tokenizer::for_model(loop.deployment().model)),
      facts(describe(loop.deployment())),
      front(options.facts),
      faults(options.faults) {
  const Deployment& d = loop.deployment();
  if (front.model_path.empty()) front.model_path = d.model.name;
  if (front.served_model_name.empty()) front.served_model_name = front.model_path;
  front.host = options.server.host;
  front.created = unix_now();
  front.time_scale = options.loop.time_scale;
  front.oracle = options.oracle == OracleMode::on;
  front.stamp_events = options.stamp == StampEvents::on;
  front.incremental_streaming = options.generate_output == StreamOutput::incremental;
  generation.tokenizer = &tokenizer;
  generation.model = front.served_model_name;
  generation.stamp = options.stamp;
  generation.generate_output = options.generate_output;
  generation.speculative = d.spec.enabled;
  generation.clock = options.loop.clock;
  plan.oracle = options.oracle;
  plan.default_include_usage = options.default_include_usage;
  plan.context_length = d.context_length;
}

std::int64_t SimServer::State::unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(util::system_wall_clock().now().time_since_epoch()).count();
}

SimServer::SimServer(Deployment deployment, FrontOptions options)
    : m_state(std::make_unique<State>(std::move(deployment), options)), m_server(options.server) {
  add_inference_routes(m_server, *m_state);
  add_tokenize_routes(m_server, *m_state);
  add_admin_routes(m_server, *m_state);
  if (!options.api_key.empty() || !options.admin_api_key.empty()) {
    m_server.set_gate([api = options.api_key, admin = options.admin_api_key](const http::ServerRequest& r) {
      return check_api_key(r, api, admin);
    });
  }
}

SimServer::~SimServer() { stop(); }

util::Result<void> SimServer::start() {
  if (auto bound = m_server.start(); !bound) return bound;
  m_state->loop.start();
  return {};
}

void SimServer::stop() {
  m_state->faults.stop();  // held streams close while the server still runs
  m_server.stop();
  m_state->loop.stop();
}

std::uint16_t SimServer::port() const { return m_server.port(); }

std::string SimServer::base_url() const { return m_server.base_url(); }

}  // namespace servebench::sim
