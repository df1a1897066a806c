#include "servebench/http/stream_connection.hpp"

#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <boost/asio/connect.hpp>
#include <boost/beast/core/buffers_range.hpp>
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

Connection::Connection(StreamClient::Impl& owner, EventLoopImpl& loop)
    : m_owner(&owner), m_loop(loop), m_clock(*owner.options.clock), m_socket(loop.ioc), m_timer(loop.ioc),
      m_stall_timer(loop.ioc) {
  m_buffer.reserve(owner.options.read_chunk);
}

// Also runs while the loop's io_context is destroyed (a handler held the last reference): only
// the poller, which outlives the io_context, is touched.
Connection::~Connection() {
  if (m_watch != 0 && m_fd >= 0) m_loop.unwatch(m_watch, m_fd);
  if (!m_socket.is_open() && m_fd >= 0) ::close(m_fd);  // else the Asio socket closes it
}

void Connection::begin(Request&& request, StreamSink& sink, Limits limits, bool reused) {
  m_loop.asio_due();  // timers, and maybe a connect
  const std::chrono::nanoseconds timeout = limits.total;
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
  m_stall = limits.stall;
  m_last_byte = m_clock.now();
  m_stall_armed = m_stall.count() > 0;
  if (m_stall_armed) watch_stall(call);
  m_open ? send() : connect();
}

void Connection::watch_stall(std::uint64_t call) {
  const auto silent = m_clock.now() - m_last_byte;
  if (silent >= m_stall) {
    const double s = std::chrono::duration<double>(m_stall).count();
    return finish(StreamResult::stalled,
                  fmt::format("no byte from {} for {} s (stall timeout)", m_owner ? m_owner->host_port() : "", s),
                  false);
  }
  m_stall_timer.expires_after(m_stall - silent);
  m_stall_timer.async_wait([self = shared_from_this(), call](const beast::error_code& ec) {
    if (ec || call != self->m_call || self->m_sink == nullptr) return;
    self->watch_stall(call);
  });
}

bool Connection::reusable_now() {
  char byte = 0;
  const ssize_t n = ::recv(m_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

void Connection::close_socket() {
  if (m_watch != 0 && m_fd >= 0) m_loop.unwatch(m_watch, m_fd);
  m_watch = 0;
  if (m_socket.is_open()) {  // connecting, or Asio writes a request's rest: Asio closes it
    m_loop.asio_due();       // its pending operations complete as aborted
    beast::error_code ignored;
    m_socket.close(ignored);
  } else if (m_fd >= 0) {
    ::close(m_fd);
  }
  m_fd = -1;
  m_open = false;
}

void Connection::connect() {
  m_loop.asio_due();
  asio::async_connect(m_socket, m_owner->endpoints,
                      [self = shared_from_this(), attempt = m_attempt](const beast::error_code& ec, const tcp::endpoint& peer) {
                        if (self->stale(attempt)) return;
                        if (ec) {
                          return self->finish(StreamResult::connect_refused,
                                              fmt::format("cannot connect to {}: {}", self->m_owner->host_port(),
                                                          util::to_lower(ec.message())),
                                              false);
                        }
                        self->on_connected(peer);
                      });
}

// Out of Asio's reactor and into the loop's poller, from here to the close: the response cannot
// arrive before the request is sent.
void Connection::on_connected(const tcp::endpoint& peer) {
  beast::error_code ec;
  m_socket.set_option(tcp::no_delay(true), ec);
  if (m_owner->options.read_observer != nullptr) {
    const int on = 1;  // the kernel stamps each segment on arrival (software RX time)
    ::setsockopt(m_socket.native_handle(), SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on));
  }
  m_protocol = peer.protocol();
  m_fd = m_socket.release(ec);  // stays non-blocking, as Asio made it to connect
  if (ec) return finish(StreamResult::reset, fmt::format("{}: {}", m_owner->host_port(), ec.message()), false);
  auto watch = m_loop.watch(m_fd, *this);
  if (!watch) return finish(StreamResult::reset, fmt::format("{}: {}", m_owner->host_port(), watch.error().message), false);
  m_watch = *watch;
  m_open = true;
  ++m_owner->opened;
  send();
}

// One sendmsg of the request as Beast's serializer renders it (header and body gathered), which
// a connected loopback or LAN socket nearly always takes whole. The response is read while the
// request is written, so a server that answers early (413 on a large body) is heard even if it
// stops reading.
void Connection::send() {
  const util::TimePoint sent_at = m_clock.now();
  m_sink->on_sent(sent_at);
  m_writing = true;
  m_serializer.emplace(m_request);
  std::array<iovec, 16> iov{};
  std::size_t count = 0;
  beast::error_code ec;
  m_serializer->next(ec, [&](beast::error_code&, const auto& buffers) {
    for (const auto buffer : beast::buffers_range_ref(buffers)) {
      if (count == iov.size()) break;
      iov[count++] = iovec{const_cast<void*>(buffer.data()), buffer.size()};
    }
  });
  if (ec) return on_send_failed(ec);
  msghdr msg{};
  msg.msg_iov = iov.data();
  msg.msg_iovlen = count;
  const ssize_t sent = ::sendmsg(m_fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
  if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
    return on_send_failed(beast::error_code(errno, boost::system::system_category()));
  }
  m_serializer->consume(sent > 0 ? static_cast<std::size_t>(sent) : 0);
  if (!m_serializer->is_done()) return send_rest();
  m_writing = false;
  m_serializer.reset();
}

void Connection::send_rest() {
  m_loop.asio_due();
  beast::error_code ec;
  m_socket.assign(m_protocol, m_fd, ec);
  if (ec) return on_send_failed(ec);
  bhttp::async_write(m_socket, *m_serializer, [self = shared_from_this(), attempt = m_attempt](const beast::error_code& ec, std::size_t) {
    if (self->stale(attempt)) return;
    self->m_writing = false;
    if (self->m_socket.is_open()) (void)self->m_socket.release();  // back to the poller alone
    if (ec) return self->on_send_failed(ec);
    self->m_serializer.reset();
  });
}

void Connection::on_send_failed(const beast::error_code& ec) {
  m_writing = false;
  if (m_status != 0) return;  // with a response under way, the read decides
  if (retried()) return;
  finish(StreamResult::reset, fmt::format("cannot send to {}: {}", m_owner->host_port(), ec.message()), false);
}

// One read per readiness. The poller is edge-triggered, so this reads again only when the last
// read filled the buffer (bytes may be left that no new edge will announce) or the peer hung up
// (end of file or the error is still to be read); a read that returned less than it asked for
// emptied the receive queue, and the next arrival is a new edge. No read is known to return EAGAIN.
// An idle pooled connection ignores its edges: the peek before reuse finds what the server did.
void Connection::on_ready(std::uint32_t events) {
  const auto keep_alive = shared_from_this();  // a sink may release this connection
  const bool hangup = (events & ReadPoller::k_hangup) != 0;
  for (;;) {
    if (m_sink == nullptr || !m_open) return;
    const std::uint64_t attempt = m_attempt;
    const ReadStatus status = read_once();
    if (status == ReadStatus::ended || status == ReadStatus::empty || stale(attempt)) return;
    if (status == ReadStatus::drained && !hangup) return;
  }
}

Connection::ReadStatus Connection::read_once() {
  const auto space = m_buffer.prepare(m_owner->options.read_chunk);
  iovec iov{space.data(), space.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (m_owner->options.read_observer != nullptr) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
  }
  const ssize_t n = ::recvmsg(m_fd, &msg, MSG_DONTWAIT);
  const util::TimePoint at = m_clock.now();  // first, before any parsing
  if (n < 0) {
    const int err = errno;
    if (err == EINTR) return ReadStatus::more;
    if (err == EAGAIN || err == EWOULDBLOCK) return ReadStatus::empty;
    on_read_error(beast::error_code(err, boost::system::system_category()));
    return ReadStatus::ended;
  }
  if (n == 0) {
    finish_at_eof();
    return ReadStatus::ended;
  }
  const bool full = static_cast<std::size_t>(n) == space.size();
  m_arrival.reset();
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec ts{};
      std::memcpy(&ts, CMSG_DATA(c), sizeof(ts));
      m_arrival = ts;
    }
  }
  m_got_bytes = true;
  m_buffer.commit(static_cast<std::size_t>(n));
  m_read_at = at;
  m_last_byte = at;
  parse();
  return full ? ReadStatus::more : ReadStatus::drained;
}

void Connection::on_read_error(const beast::error_code& ec) {
  if (retried()) return;
  finish(StreamResult::reset, fmt::format("connection to {} broke mid-response: {}", m_owner->host_port(), ec.message()),
         false);
}

// After every sink callback of this read: the delay from the kernel queueing the bytes to here.
void Connection::observe_read() {
  ReadObserver* observer = m_owner != nullptr ? m_owner->options.read_observer : nullptr;
  if (observer == nullptr || !m_arrival) return;
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const std::int64_t ns = (now.tv_sec - m_arrival->tv_sec) * 1'000'000'000LL + (now.tv_nsec - m_arrival->tv_nsec);
  observer->on_read_parsed(std::chrono::nanoseconds(std::max<std::int64_t>(0, ns)));
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
  observe_read();
  if (!m_parser->is_done()) return;  // the next edge brings more
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
  m_owner->note_reuse(true);
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
  m_loop.asio_due();  // timers cancelled
  StreamSink* sink = std::exchange(m_sink, nullptr);
  if (m_timer_armed) m_timer.cancel();
  m_timer_armed = false;
  if (m_stall_armed) m_stall_timer.cancel();
  m_stall_armed = false;
  if (m_reconnects > 0 && result != StreamResult::ok && !message.empty()) message += " (after reconnecting once)";
  StreamOutcome outcome{result, m_status, std::move(m_error_body), std::move(message), m_reconnects};
  if (m_owner && m_reused && m_reconnects == 0 && m_got_bytes) m_owner->note_reuse(false);
  if (!reusable) close_socket();
  const auto keep_alive = shared_from_this();
  if (m_owner) m_owner->release(*this, reusable);
  sink->on_done(outcome);
}

}  // namespace servebench::http::detail
