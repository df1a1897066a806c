#include "servebench/http/stream_connection.hpp"

#include <sys/socket.h>

#include <cerrno>

#include <boost/asio/connect.hpp>
#include <boost/beast/http/write.hpp>

#include "servebench/util/strings.hpp"

namespace servebench::http::detail {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

ResponseParser::ResponseParser(Connection& connection) : m_connection(connection) {
  eager(true);
  body_limit(boost::none);  // a long generation is an unbounded stream
}

void ResponseParser::on_field_impl(bhttp::field name, bsv, bsv value, ec_t&) {
  // The header is parsed in one put(), so this view into the read buffer is valid in on_header_impl.
  if (name == bhttp::field::content_type) m_content_type = value;
}

void ResponseParser::on_header_impl(ec_t&) { m_connection.on_header(m_status, m_content_type); }

std::size_t ResponseParser::on_body_impl(bsv body, ec_t&) {
  m_connection.on_body(body);
  return body.size();
}

Connection::Connection(StreamClient::Impl& owner, asio::io_context& ioc)
    : m_owner(&owner), m_clock(*owner.options.clock), m_socket(ioc), m_timer(ioc) {
  m_buffer.reserve(owner.options.read_chunk);
}

void Connection::begin(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout, bool reused) {
  const std::uint64_t call = ++m_call;
  ++m_attempt;
  m_sink = &sink;
  m_status = 0;
  m_reconnects = 0;
  m_reused = reused;
  m_got_bytes = false;
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
      if (ec || call != self->m_call || self->m_sink == nullptr) return;
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
                      [self = shared_from_this(), attempt = m_attempt](const beast::error_code& ec, const tcp::endpoint&) {
                        if (self->stale(attempt)) return;
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
  bhttp::async_write(m_socket, m_request, [self = shared_from_this(), attempt = m_attempt](const beast::error_code& ec, std::size_t) {
    if (self->stale(attempt)) return;
    self->m_writing = false;
    if (!ec || self->m_status != 0) return;  // with a response under way, the read decides
    if (self->retried()) return;
    self->finish(StreamResult::reset, fmt::format("cannot send to {}: {}", self->m_owner->host_port(), ec.message()),
                 false);
  });
  read();
  m_sink->on_sent(sent_at);
}

void Connection::read() {
  m_socket.async_read_some(m_buffer.prepare(m_owner->options.read_chunk),
                           [self = shared_from_this(), attempt = m_attempt](const beast::error_code& ec, std::size_t bytes) {
                             self->on_read(ec, bytes, attempt);
                           });
}

void Connection::on_read(const beast::error_code& ec, std::size_t bytes, std::uint64_t attempt) {
  const util::TimePoint at = m_clock.now();  // first, before any parsing
  if (stale(attempt)) return;
  if (ec == asio::error::eof) return finish_at_eof();
  if (ec) {
    if (retried()) return;
    return finish(StreamResult::reset,
                  fmt::format("connection to {} broke mid-response: {}", m_owner->host_port(), ec.message()), false);
  }
  m_got_bytes = true;
  m_buffer.commit(bytes);
  m_read_at = at;
  parse();
}

void Connection::parse() {
  const std::uint64_t attempt = m_attempt;
  while (m_buffer.size() > 0) {
    beast::error_code ec;
    const std::size_t used = m_parser->put(m_buffer.data(), ec);
    m_buffer.consume(used);
    if (stale(attempt)) return;  // the sink cancelled from a callback
    if (ec == bhttp::error::need_more) break;
    if (ec) return finish(StreamResult::malformed, fmt::format("malformed response: {}", ec.message()), false);
    if (m_parser->is_done()) break;
  }
  if (!m_parser->is_done()) return read();
  const bool ok = m_status >= 200 && m_status < 300;
  // Reuse only a connection in a clean state: whole request written, no stray bytes, and a
  // server that keeps it open (HTTP/1.1 without "Connection: close"; HTTP/1.0 only with keep-alive).
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
  if (retried()) return;
  finish(StreamResult::reset,
         fmt::format("{} closed the connection before the response was complete", m_owner->host_port()), false);
}

bool Connection::retried() {
  if (!m_reused || m_got_bytes || m_reconnects > 0 || m_owner == nullptr) return false;
  ++m_reconnects;
  ++m_attempt;  // the old socket's pending completions become stale
  close_socket();
  m_writing = false;
  m_buffer.clear();
  m_parser.emplace(*this);
  connect();
  return true;
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
  if (m_reconnects > 0 && result != StreamResult::ok && !message.empty()) message += " (after reconnecting once)";
  StreamOutcome outcome{result, m_status, std::move(m_error_body), std::move(message), m_reconnects};
  if (!reusable) close_socket();
  const auto keep_alive = shared_from_this();
  if (m_owner) m_owner->release(*this, reusable);
  sink->on_done(outcome);
}

}  // namespace servebench::http::detail
