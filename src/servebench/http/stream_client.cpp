#include "servebench/http/stream_client.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <optional>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <fmt/format.h>

#include "servebench/http/event_loop_impl.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::http {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

std::string_view to_string(StreamResult result) {
  switch (result) {
    case StreamResult::ok: return "ok";
    case StreamResult::http_status: return "http_status";
    case StreamResult::connect_refused: return "connect_refused";
    case StreamResult::reset: return "reset";
    case StreamResult::timeout: return "timeout";
    case StreamResult::malformed: return "malformed";
    case StreamResult::cancelled: return "cancelled";
  }
  return "unknown";
}

namespace {

class Connection;

// A Beast parser that hands body bytes straight from the read buffer to the connection (no body
// copy, no allocation); the connection forwards them to its sink.
class ResponseParser final : public bhttp::basic_parser<false> {
 public:
  explicit ResponseParser(Connection& connection) : m_connection(connection) {
    eager(true);
    body_limit(boost::none);  // a long generation is an unbounded stream
  }

 private:
  // Beast's string_view is boost::core::string_view here; it converts to std::string_view.
  using bsv = beast::string_view;
  void on_request_impl(bhttp::verb, bsv, bsv, int, beast::error_code&) override {}
  void on_response_impl(int status, bsv, int, beast::error_code&) override { m_status = status; }
  void on_field_impl(bhttp::field name, bsv, bsv value, beast::error_code&) override {
    // The header is parsed in one put(), so this view into the read buffer is valid in on_header_impl.
    if (name == bhttp::field::content_type) m_content_type = value;
  }
  void on_header_impl(beast::error_code&) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>&, beast::error_code&) override {}
  std::size_t on_body_impl(bsv body, beast::error_code&) override;
  void on_chunk_header_impl(std::uint64_t, bsv, beast::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, bsv body, beast::error_code& ec) override { return on_body_impl(body, ec); }
  void on_finish_impl(beast::error_code&) override {}

  Connection& m_connection;
  int m_status = 0;
  std::string_view m_content_type;
};

// One keep-alive connection and the request running on it. Completion handlers hold a
// shared_ptr and the call number, so a late completion of an earlier call does nothing.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(StreamClient::Impl& owner, asio::io_context& ioc);

  void begin(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout);
  void cancel() { finish(StreamResult::cancelled, "cancelled", false); }
  // An idle connection the server has not closed (a peek finds neither EOF nor stray bytes).
  bool reusable_now();
  void close_socket();
  void detach() { m_owner = nullptr; }

  // Parser side.
  void on_header(int status, std::string_view content_type);
  void on_body(std::string_view bytes);

  std::size_t active_index = 0;  // position in the owner's active list

 private:
  void connect();
  void send();
  void read();
  void on_read(const beast::error_code& ec, std::size_t bytes, std::uint64_t call);
  void parse();
  void finish_at_eof();
  void finish(StreamResult result, std::string message, bool reusable);
  bool stale(std::uint64_t call) const { return call != m_call || m_sink == nullptr; }

  StreamClient::Impl* m_owner;
  const util::Clock& m_clock;
  tcp::socket m_socket;
  asio::steady_timer m_timer;
  beast::flat_buffer m_buffer;
  std::optional<ResponseParser> m_parser;
  bhttp::request<bhttp::string_body> m_request;
  StreamSink* m_sink = nullptr;
  std::uint64_t m_call = 0;
  util::TimePoint m_read_at{};
  int m_status = 0;
  std::string m_error_body;
  bool m_open = false;
  bool m_writing = false;
  bool m_timer_armed = false;
};

}  // namespace

struct StreamClient::Impl {
  Impl(EventLoop& l, Url u, StreamClientOptions o) : loop(l), url(std::move(u)), options(o) {}
  ~Impl();

  void start(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout);
  void cancel_all();
  void release(Connection& connection, bool reusable);
  std::string host_port() const { return fmt::format("{}:{}", url.host, url.port); }

  EventLoop& loop;
  Url url;
  StreamClientOptions options;
  std::vector<tcp::endpoint> endpoints;
  std::string host_header;
  std::vector<std::shared_ptr<Connection>> idle;
  std::vector<std::shared_ptr<Connection>> active;
  std::uint64_t opened = 0;
  bool closing = false;
};

namespace {

void ResponseParser::on_header_impl(beast::error_code&) { m_connection.on_header(m_status, m_content_type); }

std::size_t ResponseParser::on_body_impl(bsv body, beast::error_code&) {
  m_connection.on_body(body);
  return body.size();
}

Connection::Connection(StreamClient::Impl& owner, asio::io_context& ioc)
    : m_owner(&owner), m_clock(*owner.options.clock), m_socket(ioc), m_timer(ioc) {
  m_buffer.reserve(owner.options.read_chunk);
}

void Connection::begin(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout) {
  const std::uint64_t call = ++m_call;
  m_sink = &sink;
  m_status = 0;
  m_error_body.clear();
  m_parser.emplace(*this);
  m_request = {};
  m_request.version(11);
  m_request.method(request.method == Method::get ? bhttp::verb::get : bhttp::verb::post);
  m_request.target(m_owner->url.prefix.empty() ? request.target : m_owner->url.prefix + request.target);
  m_request.set(bhttp::field::host, m_owner->host_header);
  for (const auto& [name, value] : request.headers) m_request.set(name, value);
  if (request.method == Method::post || !request.body.empty()) {
    m_request.set(bhttp::field::content_type, request.content_type);
  }
  m_request.body() = std::move(request.body);
  m_request.prepare_payload();
  m_timer_armed = timeout.count() > 0;
  if (m_timer_armed) {
    m_timer.expires_after(timeout);
    m_timer.async_wait([self = shared_from_this(), call, timeout](const beast::error_code& ec) {
      if (ec || self->stale(call)) return;
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
      self->finish(StreamResult::timeout, fmt::format("no complete response within {} ms", ms), false);
    });
  }
  m_open ? send() : connect();
}

bool Connection::reusable_now() {
  char byte = 0;
  const ssize_t n = ::recv(m_socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

void Connection::close_socket() {
  beast::error_code ignored;
  m_socket.close(ignored);
  m_open = false;
}

void Connection::connect() {
  asio::async_connect(m_socket, m_owner->endpoints,
                      [self = shared_from_this(), call = m_call](const beast::error_code& ec, const tcp::endpoint&) {
                        if (self->stale(call)) return;
                        if (ec) {
                          return self->finish(StreamResult::connect_refused,
                                              fmt::format("cannot connect to {}: {}", self->m_owner->host_port(),
                                                          util::to_lower(ec.message())),
                                              false);
                        }
                        beast::error_code ignored;
                        self->m_socket.set_option(tcp::no_delay(true), ignored);
                        self->m_open = true;
                        ++self->m_owner->opened;
                        self->send();
                      });
}

// The response is read while the request is written, so a server that answers early (413 on a
// large body) is heard even if it stops reading.
void Connection::send() {
  const util::TimePoint sent_at = m_clock.now();
  m_writing = true;
  bhttp::async_write(m_socket, m_request, [self = shared_from_this(), call = m_call](const beast::error_code& ec, std::size_t) {
    self->m_writing = false;
    if (self->stale(call) || !ec || self->m_status != 0) return;  // with a response under way, the read decides
    self->finish(StreamResult::reset, fmt::format("cannot send to {}: {}", self->m_owner->host_port(), ec.message()),
                 false);
  });
  read();
  m_sink->on_sent(sent_at);
}

void Connection::read() {
  m_socket.async_read_some(m_buffer.prepare(m_owner->options.read_chunk),
                           [self = shared_from_this(), call = m_call](const beast::error_code& ec, std::size_t bytes) {
                             self->on_read(ec, bytes, call);
                           });
}

void Connection::on_read(const beast::error_code& ec, std::size_t bytes, std::uint64_t call) {
  const util::TimePoint at = m_clock.now();  // first, before any parsing
  if (stale(call)) return;
  if (ec == asio::error::eof) return finish_at_eof();
  if (ec) {
    return finish(StreamResult::reset,
                  fmt::format("connection to {} broke mid-response: {}", m_owner->host_port(), ec.message()), false);
  }
  m_buffer.commit(bytes);
  m_read_at = at;
  parse();
}

void Connection::parse() {
  const std::uint64_t call = m_call;
  while (m_buffer.size() > 0) {
    beast::error_code ec;
    const std::size_t used = m_parser->put(m_buffer.data(), ec);
    m_buffer.consume(used);
    if (stale(call)) return;  // the sink cancelled from a callback
    if (ec == bhttp::error::need_more) break;
    if (ec) return finish(StreamResult::malformed, fmt::format("malformed response: {}", ec.message()), false);
    if (m_parser->is_done()) break;
  }
  if (!m_parser->is_done()) return read();
  const bool ok = m_status >= 200 && m_status < 300;
  // Reuse only a connection in a clean state: whole request written, no stray bytes.
  const bool reusable = m_parser->keep_alive() && m_buffer.size() == 0 && !m_writing;
  finish(ok ? StreamResult::ok : StreamResult::http_status, {}, reusable);
}

void Connection::finish_at_eof() {
  beast::error_code ec;
  if (m_parser->got_some()) m_parser->put_eof(ec);
  if (m_parser->got_some() && !ec && m_parser->is_done()) {
    const bool ok = m_status >= 200 && m_status < 300;
    return finish(ok ? StreamResult::ok : StreamResult::http_status, {}, false);
  }
  finish(StreamResult::reset,
         fmt::format("{} closed the connection before the response was complete", m_owner->host_port()), false);
}

void Connection::on_header(int status, std::string_view content_type) {
  m_status = status;
  if (m_sink != nullptr) m_sink->on_headers(status, content_type);
}

void Connection::on_body(std::string_view bytes) {
  if (m_sink == nullptr) return;
  if ((m_status < 200 || m_status >= 300) && m_error_body.size() < m_owner->options.max_error_body) {
    m_error_body.append(bytes.substr(0, m_owner->options.max_error_body - m_error_body.size()));
  }
  m_sink->on_body(bytes, m_read_at);
}

// Reports the outcome last, after the connection is back in the pool (or closed), so the sink
// may start its next request from on_done — possibly on this very connection.
void Connection::finish(StreamResult result, std::string message, bool reusable) {
  if (m_sink == nullptr) return;
  StreamSink* sink = std::exchange(m_sink, nullptr);
  if (m_timer_armed) m_timer.cancel();
  m_timer_armed = false;
  StreamOutcome outcome{result, m_status, std::move(m_error_body), std::move(message)};
  if (!reusable) close_socket();
  const auto keep_alive = shared_from_this();
  if (m_owner) m_owner->release(*this, reusable);
  sink->on_done(outcome);
}

}  // namespace

StreamClient::Impl::~Impl() {
  closing = true;
  cancel_all();
  for (const auto& connection : idle) connection->close_socket();
  for (const auto& connection : idle) connection->detach();
}

void StreamClient::Impl::start(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout) {
  if (closing) {
    sink.on_done(StreamOutcome{StreamResult::cancelled, 0, {}, "cancelled"});
    return;
  }
  std::shared_ptr<Connection> connection;
  while (!idle.empty() && !connection) {
    connection = std::move(idle.back());
    idle.pop_back();
    if (!connection->reusable_now()) {
      connection->close_socket();
      connection.reset();
    }
  }
  if (!connection) connection = std::make_shared<Connection>(*this, loop.impl().ioc);
  connection->active_index = active.size();
  active.push_back(connection);
  connection->begin(std::move(request), sink, timeout);
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
  if (reusable && !closing && idle.size() < options.max_idle_connections) {
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

void StreamClient::start(Request request, StreamSink& sink, std::chrono::nanoseconds timeout) {
  SB_CHECK(m_impl->loop.in_loop_thread());
  m_impl->start(std::move(request), sink, timeout);
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
