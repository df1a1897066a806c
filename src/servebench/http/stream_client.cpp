#include "servebench/http/stream_client.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <fmt/format.h>

#include "servebench/http/stream_connection.hpp"

namespace servebench::http {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using detail::Connection;

std::string_view to_string(StreamResult result) {
  switch (result) {
    case StreamResult::ok: return "ok";
    case StreamResult::http_status: return "http_status";
    case StreamResult::connect_refused: return "connect_refused";
    case StreamResult::reset: return "reset";
    case StreamResult::timeout: return "timeout";
    case StreamResult::stalled: return "stalled";
    case StreamResult::malformed: return "malformed";
    case StreamResult::cancelled: return "cancelled";
  }
  return "unknown";
}

StreamClient::Impl::~Impl() {
  closing = true;
  cancel_all();
  for (const auto& connection : idle) connection->close_socket();
  for (const auto& connection : idle) connection->detach();
}

void StreamClient::Impl::start(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout,
                               std::chrono::nanoseconds stall) {
  if (closing) {
    sink.on_done(StreamOutcome{StreamResult::cancelled, 0, {}, "cancelled", 0});
    return;
  }
  std::shared_ptr<Connection> connection;
  while (!idle.empty() && !connection) {
    connection = std::move(idle.back());
    idle.pop_back();
    if (!connection->reusable_now()) {  // the server closed it while it was idle
      note_reuse(true);
      connection->close_socket();
      connection.reset();
    }
  }
  const bool reused = connection != nullptr;
  if (!connection) connection = std::make_shared<Connection>(*this, loop.impl());
  connection->active_index = active.size();
  active.push_back(connection);
  connection->begin(std::move(request), sink, {.total = timeout, .stall = stall}, reused);
}

void StreamClient::Impl::cancel_all() {
  const auto snapshot = active;  // cancelling edits `active`, and on_done may start new requests
  for (const auto& connection : snapshot) connection->cancel();
}

void StreamClient::Impl::release(Connection& connection, bool reusable) {
  const std::size_t index = connection.active_index;
  SB_CHECK(index < active.size() && active[index].get() == &connection);
  std::shared_ptr<Connection> self = std::move(active[index]);
  if (index + 1 != active.size()) {
    active[index] = std::move(active.back());
    active[index]->active_index = index;
  }
  active.pop_back();
  if (closing) self->detach();
  if (reusable && !closing && idle.size() < options.max_idle_connections && keep_in_pool()) {
    idle.push_back(std::move(self));
  } else if (reusable) {
    self->close_socket();
  }
}

util::Result<std::unique_ptr<StreamClient>> StreamClient::create(EventLoop& loop, const Url& url,
                                                                 StreamClientOptions options) {
  auto impl = std::make_unique<Impl>(loop, url, options);
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(url.host, ec);
  if (!ec) {
    impl->endpoints.emplace_back(address, url.port);
  } else {
    tcp::resolver resolver(loop.impl().ioc);
    for (const auto& entry : resolver.resolve(url.host, std::to_string(url.port), ec)) {
      impl->endpoints.push_back(entry.endpoint());
    }
    if (ec || impl->endpoints.empty()) {
      return util::failf(util::ErrorKind::unreachable, "cannot resolve {}: {}", url.text,
                         ec ? ec.message() : "no address");
    }
  }
  const bool v6 = url.host.find(':') != std::string::npos;
  impl->host_header = v6 ? fmt::format("[{}]:{}", url.host, url.port) : fmt::format("{}:{}", url.host, url.port);
  return std::unique_ptr<StreamClient>(new StreamClient(std::move(impl)));
}

StreamClient::StreamClient(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

StreamClient::~StreamClient() {
  SB_CHECK(!m_impl->loop.running() || m_impl->loop.in_loop_thread());
}

void StreamClient::start(Request request, StreamSink& sink, std::chrono::nanoseconds timeout,
                         std::chrono::nanoseconds stall) {
  SB_CHECK(m_impl->loop.in_loop_thread());
  m_impl->start(std::move(request), sink, timeout, stall);
}

void StreamClient::cancel_all() {
  SB_CHECK(m_impl->loop.in_loop_thread());
  m_impl->cancel_all();
}

std::size_t StreamClient::in_flight() const noexcept { return m_impl->active.size(); }
std::size_t StreamClient::idle_connections() const noexcept { return m_impl->idle.size(); }
std::uint64_t StreamClient::connections_opened() const noexcept { return m_impl->opened; }
const Url& StreamClient::url() const noexcept { return m_impl->url; }

}  // namespace servebench::http
