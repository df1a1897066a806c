#include "servebench/load/engine_control.hpp"

#include <algorithm>

#include <boost/json.hpp>

#include "servebench/http/bearer_exchange.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;
using util::ErrorKind;

}  // namespace

struct EngineControl::Impl {
  std::unique_ptr<engines::EngineAdapter> adapter;
  std::unique_ptr<http::BearerExchange> exchange;  // the key never leaves it
  std::chrono::milliseconds timeout;
  std::optional<util::Result<wire::ServerFacts>> facts;  // read once
  std::optional<util::Result<engines::Counters>> before;
  std::string model;

  const util::Result<wire::ServerFacts>& server_facts() {
    if (!facts) facts = adapter->facts(*exchange);
    return *facts;
  }
};

Vocabulary safe_vocabulary(std::optional<std::int64_t> reported_size) {
  const std::int64_t size = reported_size && *reported_size > 1 ? *reported_size : 32000;
  const auto low = static_cast<std::int32_t>(std::min<std::int64_t>(1000, size / 32));
  const auto high = static_cast<std::int32_t>(std::min<std::int64_t>(size, 30000));
  std::vector<std::int32_t> excluded(static_cast<std::size_t>(low));
  for (std::int32_t i = 0; i < low; ++i) excluded[static_cast<std::size_t>(i)] = i;
  auto v = Vocabulary::make(high, std::move(excluded));
  SB_CHECK(v.has_value());
  return *v;
}

EngineControl::EngineControl(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
EngineControl::~EngineControl() = default;

util::Result<std::unique_ptr<EngineControl>> EngineControl::create(wire::Backend backend, const std::string& base_url,
                                                                   const std::string& api_key,
                                                                   std::chrono::milliseconds timeout) {
  auto client = http::BlockingClient::create(base_url);
  if (!client) return std::unexpected(client.error());
  auto impl = std::make_unique<Impl>();
  impl->adapter = engines::make_adapter(engines::engine_of(backend));
  impl->exchange = std::make_unique<http::BearerExchange>(std::move(*client), api_key);
  impl->timeout = timeout;
  return std::unique_ptr<EngineControl>(new EngineControl(std::move(impl)));
}

util::Result<void> EngineControl::check_health() {
  auto h = m_impl->adapter->health(*m_impl->exchange);
  if (!h) return util::fail(ErrorKind::unreachable, h.error().message);
  if (!h->ready) {
    return util::failf(ErrorKind::unreachable, "{} is not ready: /health answered {} {}", m_impl->exchange->base_url(),
                       h->status, h->detail);
  }
  return {};
}

util::Result<std::string> EngineControl::first_model() {
  if (m_impl->model.empty()) {
    auto m = m_impl->adapter->models(*m_impl->exchange);
    if (!m) return std::unexpected(m.error());
    m_impl->model = std::move(*m);
  }
  return m_impl->model;
}

util::Result<void> EngineControl::flush_cache() {
  const auto deadline = util::steady_clock().now() + m_impl->timeout;
  // Not every engine shows an idle signal; the flush itself retries while the server is busy.
  (void)m_impl->adapter->wait_idle(*m_impl->exchange, deadline);
  return m_impl->adapter->flush(*m_impl->exchange, deadline);
}

void EngineControl::begin_window() { m_impl->before = m_impl->adapter->snapshot(*m_impl->exchange); }

CounterWindow EngineControl::end_window() {
  CounterWindow w;
  auto after = m_impl->adapter->snapshot(*m_impl->exchange);
  if (m_impl->before && *m_impl->before && after) {
    const engines::Counters& b = **m_impl->before;
    if (auto hit = m_impl->adapter->hit_rate(b, *after)) w.hit_rate = *hit;
    w.accept_length = m_impl->adapter->accept_length(b, *after);
    w.sim_steps = sim_step_window(b.sim_step_lateness, after->sim_step_lateness);
  }
  // Needs no counters (SGLang without --enable-metrics reports it too).
  if (!w.accept_length) w.reported_accept_length = m_impl->adapter->reported_accept_length(*m_impl->exchange);
  return w;
}

boost::json::value EngineControl::server_info() {
  const auto& f = m_impl->server_facts();
  if (!f || f->raw_json.empty()) return nullptr;
  auto raw = util::parse_json(f->raw_json, "server facts");
  if (!raw || !raw->is_object()) return nullptr;
  if (const json::value* info = raw->as_object().if_contains("/server_info")) return *info;
  return nullptr;
}

boost::json::object EngineControl::facts() {
  const auto& f = m_impl->server_facts();
  if (!f) return {{"error", f.error().message}};
  return wire::to_json(*f);
}

std::optional<Vocabulary> EngineControl::vocabulary() {
  auto size = m_impl->adapter->vocab_size(*m_impl->exchange);
  return safe_vocabulary(size ? *size : std::nullopt);
}

util::Result<std::vector<std::int32_t>> EngineControl::tokenize(std::string_view text, Specials specials) {
  return m_impl->adapter->tokenize(*m_impl->exchange, text,
                                   specials == Specials::add ? engines::SpecialTokens::add : engines::SpecialTokens::omit);
}

util::Result<std::string> EngineControl::detokenize(std::span<const std::int32_t> ids) {
  return m_impl->adapter->detokenize(*m_impl->exchange, ids);
}

void EngineControl::set_model(std::string model) { m_impl->model = std::move(model); }

std::string EngineControl::identity() const {
  return std::string(engines::to_string(m_impl->adapter->engine())) + "/" + m_impl->model;
}

}  // namespace servebench::load
