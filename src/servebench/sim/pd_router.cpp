#include "servebench/sim/pd_router.hpp"

#include <future>

#include <fmt/format.h>

#include "servebench/sim/pd_exchange.hpp"
#include "servebench/sim/route_errors.hpp"

namespace servebench::sim {
namespace {

util::Result<std::vector<RouterPartLink>> links(const std::vector<std::string>& urls, std::string_view flag) {
  if (urls.empty()) return util::failf(util::ErrorKind::bad_input, "--router needs at least one {} URL", flag);
  std::vector<RouterPartLink> out;
  for (const auto& text : urls) {
    auto url = http::parse_url(text);
    if (!url) return util::failf(util::ErrorKind::bad_input, "{} {}: {}", flag, text, url.error().message);
    auto control = http::BlockingClient::create(url->text);
    if (!control) return util::failf(util::ErrorKind::bad_input, "{} {}: {}", flag, text, control.error().message);
    out.push_back({std::move(*url), std::move(*control)});
  }
  return out;
}

// What the parts get: the client's request as it came (route, query, body, content type, key).
http::Request upstream_of(const http::ServerRequest& r) {
  http::Request u;
  u.method = http::Method::post;
  u.target = r.target;
  u.body = r.body;
  if (const auto type = r.header("Content-Type"); !type.empty()) u.content_type = std::string(type);
  if (const auto auth = r.header("Authorization"); !auth.empty()) u.headers.emplace_back("Authorization", std::string(auth));
  return u;
}

}  // namespace

void PdRouter::Core::start_exchange(http::Request upstream, std::shared_ptr<http::Stream> client) {
  auto exchange = std::make_shared<PdExchange>(*this, std::move(upstream), client);
  // A client that leaves cancels the hop in progress (its part frees the request at once).
  client->on_close([this, weak = std::weak_ptr<PdExchange>(exchange)] {
    loop.post([weak] {
      if (auto e = weak.lock()) e->cancel();
    });
  });
  live.emplace(exchange.get(), exchange);
  exchange->start();
}

void PdRouter::Core::retire(const PdExchange* exchange) {
  loop.post([this, exchange] {
    if (live.erase(exchange) > 0) in_flight.fetch_sub(1, std::memory_order_relaxed);
  });
}

util::Result<std::unique_ptr<PdRouter>> PdRouter::create(RouterOptions options) {
  auto core = std::make_unique<Core>();
  auto prefill = links(options.prefill_urls, "--prefill");
  if (!prefill) return std::unexpected(prefill.error());
  auto decode = links(options.decode_urls, "--decode");
  if (!decode) return std::unexpected(decode.error());
  core->prefill = std::move(*prefill);
  core->decode = std::move(*decode);
  const http::ServerOptions server = options.server;
  core->options = std::move(options);
  return std::unique_ptr<PdRouter>(new PdRouter(std::move(core), server));
}

PdRouter::PdRouter(std::unique_ptr<Core> core, const http::ServerOptions& server)
    : m_core(std::move(core)), m_server(server) {
  Core& c = *m_core;
  for (const char* path : {"/v1/completions", "/v1/chat/completions", "/generate"}) {
    m_server.route_stream(http::Method::post, path,
                          guarded(http::StreamHandler([&c](const http::ServerRequest& r, std::shared_ptr<http::Stream> s) {
                            c.in_flight.fetch_add(1, std::memory_order_relaxed);
                            c.loop.post([&c, u = upstream_of(r), s = std::move(s)]() mutable {
                              c.start_exchange(std::move(u), std::move(s));
                            });
                          })));
  }
  add_router_control_routes(m_server, c);
  if (!c.options.api_key.empty()) {
    m_server.set_gate([key = c.options.api_key](const http::ServerRequest& r) { return check_api_key(r, key, ""); });
  }
}

PdRouter::~PdRouter() { stop(); }

util::Result<void> PdRouter::start() {
  m_core->loop.start();
  return m_server.start();
}

void PdRouter::stop() {
  m_server.stop();  // no new exchanges; the clients' streams close
  if (!m_core->loop.running()) return;
  // Cancel what is in progress on the loop thread, and let the retirements it posts run first.
  std::promise<void> drained;
  m_core->loop.post([this, &drained] {
    std::vector<std::shared_ptr<PdExchange>> open;
    for (auto& [_, e] : m_core->live) open.push_back(e);
    for (auto& e : open) e->cancel();
    m_core->loop.post([&drained] { drained.set_value(); });
  });
  drained.get_future().wait_for(std::chrono::seconds(5));
  m_core->loop.stop();
  m_core->live.clear();
}

std::string PdRouter::base_url() const { return m_server.base_url(); }

}  // namespace servebench::sim
