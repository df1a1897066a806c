#include "servebench/http/server_connection.hpp"

#include <sstream>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "servebench/http/error_response.hpp"
#include "servebench/http/server_stream.hpp"

namespace servebench::http::detail {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t k_header_limit = 64 * 1024;
constexpr std::size_t k_watch_bytes = 4096;
constexpr std::size_t k_max_pipelined_bytes = 64 * 1024;  // read ahead while a stream runs
constexpr auto k_linger = std::chrono::seconds(1);        // drain time before closing after an error

std::string render_stream_header(bool keep_alive) {
  bhttp::response<bhttp::empty_body> head{bhttp::status::ok, 11};
  head.set(bhttp::field::content_type, "text/event-stream");
  head.set(bhttp::field::cache_control, "no-cache");
  head.chunked(true);
  head.keep_alive(keep_alive);
  std::ostringstream out;
  out << head.base();
  return out.str();
}

const std::string& stream_header(bool keep_alive) {
  static const std::string keep = render_stream_header(true);
  static const std::string close = render_stream_header(false);
  return keep_alive ? keep : close;
}

bool is_http_error(const beast::error_code& ec) {
  return ec.category() == bhttp::make_error_code(bhttp::error::bad_method).category();
}

ServerRequest to_server_request(bhttp::request<bhttp::string_body>&& message) {
  ServerRequest request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  const auto [path, query] = split_target(request.target);
  request.path = std::string(path);
  request.query = std::string(query);
  for (const auto& field : message) {
    request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  request.body = std::move(message.body());
  return request;
}

}  // namespace

class ServerConnection final : public StreamOwner, public std::enable_shared_from_this<ServerConnection> {
 public:
  ServerConnection(tcp::socket socket, std::shared_ptr<ServerShared> shared)
      : m_strand(socket.get_executor()), m_socket(std::move(socket)), m_shared(std::move(shared)),
        m_timer(m_strand), m_idle_timer(m_strand) {}
  ~ServerConnection() {
    if (m_stream) m_stream->close();  // before the socket closes: producers may hold its fd
    m_shared->connections.erase(this);
  }

  void start() { asio::post(m_strand, [self = shared_from_this()] { self->read_request(); }); }
  void close_from_any_thread() {
    asio::post(m_strand, [self = shared_from_this()] { self->close_now(); });
  }
  void notify(std::shared_ptr<StreamCore> core, StreamEvent event) override {
    asio::post(m_strand, [self = shared_from_this(), core = std::move(core), event] {
      self->on_stream_event(core.get(), event);
    });
  }

 private:
  void read_request();
  void read_header();
  void arm_read_deadline(std::chrono::milliseconds within);
  void on_header(const beast::error_code& ec);
  void read_body();
  void on_request(const beast::error_code& ec);
  void dispatch(ServerRequest request);
  void run_stream_handler(const StreamHandler& handler, const ServerRequest& request);
  void write_response(Response response);
  void on_response_written(const beast::error_code& ec);
  void on_stream_event(StreamCore* core, StreamEvent event);
  void flush_stream();
  void watch_disconnect();
  void on_watch(const beast::error_code& ec, std::size_t bytes);
  void end_exchange();
  bool keep_open() const { return m_keep_alive && !m_shared->close_after_response; }
  void arm_idle_timer();  // ServerOptions::keepalive_timeout, once a request was served
  void reject(int status, std::string_view message);
  void linger_close();
  void drain();
  void close_now();

  const asio::any_io_executor m_strand;  // immutable: other threads post through it
  tcp::socket m_socket;
  std::shared_ptr<ServerShared> m_shared;
  asio::steady_timer m_timer;  // the read deadline of a request, then the linger after an error
  asio::steady_timer m_idle_timer;  // closes a connection left idle (ServerOptions::keepalive_timeout)
  std::int64_t m_served = 0;        // requests dispatched on this connection
  beast::flat_buffer m_buffer;
  std::optional<bhttp::request_parser<bhttp::string_body>> m_parser;
  bhttp::response<bhttp::string_body> m_response;
  std::shared_ptr<StreamCore> m_stream;  // the streamed/deferred exchange in progress
  std::string m_outbox;                  // stream bytes being written
  bool m_keep_alive = true;
  bool m_writing = false;
  bool m_watching = false;
  bool m_rejecting = false;
  bool m_closed = false;
  bool m_reading = false;  // a request's bytes are arriving: its read deadline is armed
};

// An idle keep-alive connection may wait for its next request as long as it likes; once the first
// byte is there, the head and then the body must arrive within their deadlines, so a client that
// trickles bytes (slowloris) cannot hold a connection forever.
void ServerConnection::read_request() {
  if (m_closed) return;
  if (m_buffer.size() > 0) return read_header();  // a pipelined request is already here
  m_socket.async_wait(tcp::socket::wait_read, [self = shared_from_this()](const beast::error_code& ec) {
    if (self->m_closed) return;
    if (ec) return self->close_now();
    self->read_header();
  });
}

void ServerConnection::arm_read_deadline(std::chrono::milliseconds within) {
  m_reading = true;
  m_timer.expires_after(within);
  m_timer.async_wait([self = shared_from_this()](const beast::error_code& ec) {
    if (!ec && self->m_reading) self->close_now();  // the pending read then ends with an error
  });
}

void ServerConnection::read_header() {
  arm_read_deadline(m_shared->header_timeout);
  m_parser.emplace();
  m_parser->body_limit(m_shared->body_limit);
  m_parser->header_limit(k_header_limit);
  if (m_served > 0) arm_idle_timer();
  bhttp::async_read_header(m_socket, m_buffer, *m_parser, [self = shared_from_this()](const beast::error_code& ec,
                                                                                       std::size_t) {
    self->on_header(ec);
  });
}

void ServerConnection::arm_idle_timer() {
  if (m_shared->keepalive_timeout.count() <= 0) return;
  m_idle_timer.expires_after(m_shared->keepalive_timeout);
  m_idle_timer.async_wait([self = shared_from_this()](const beast::error_code& ec) { if (!ec) self->close_now(); });
}

// A client that sends "Expect: 100-continue" (curl does for bodies over 1 KiB) waits for this
// interim answer before sending the body; without it every such request would stall for a second.
void ServerConnection::on_header(const beast::error_code& ec) {
  if (m_closed) return;
  m_idle_timer.cancel();
  if (ec || m_parser->is_done()) return on_request(ec);
  arm_read_deadline(m_shared->body_timeout);
  if (!beast::iequals(m_parser->get()[bhttp::field::expect], "100-continue")) return read_body();
  static constexpr std::string_view k_continue = "HTTP/1.1 100 Continue\r\n\r\n";
  asio::async_write(m_socket, asio::buffer(k_continue.data(), k_continue.size()),
                    [self = shared_from_this()](const beast::error_code& write_ec, std::size_t) {
                      if (self->m_closed) return;
                      if (write_ec) return self->close_now();
                      self->read_body();
                    });
}

void ServerConnection::read_body() {
  bhttp::async_read(m_socket, m_buffer, *m_parser,
                    [self = shared_from_this()](const beast::error_code& ec, std::size_t) { self->on_request(ec); });
}

void ServerConnection::on_request(const beast::error_code& ec) {
  m_reading = false;
  m_timer.cancel();
  if (m_closed) return;
  if (!ec) return dispatch(to_server_request(m_parser->release()));
  if (ec == bhttp::error::body_limit) {
    return reject(413, fmt::format("request body exceeds the limit of {} bytes", m_shared->body_limit));
  }
  if (is_http_error(ec) && ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
    return reject(400, fmt::format("malformed request: {}", ec.message()));
  }
  close_now();  // the client closed or the socket failed
}

void ServerConnection::dispatch(ServerRequest request) {
  m_keep_alive = m_parser->keep_alive();
  const std::int64_t limit = m_shared->max_requests_per_connection;
  if (++m_served >= limit && limit > 0) m_keep_alive = false;  // announced in this response
  if (auto denied = m_shared->router.gate(request)) return write_response(std::move(*denied));
  const Router::Match match = m_shared->router.find(request.method, request.path);
  if (match.stream_handler) return run_stream_handler(*match.stream_handler, request);
  Response response;
  try {
    response = match.handler ? (*match.handler)(request) : m_shared->router.unmatched(request);
  } catch (const std::exception& e) {
    response = error_response(500, e.what());
  } catch (...) {
    response = error_response(500, "handler failed");
  }
  write_response(std::move(response));
}

void ServerConnection::run_stream_handler(const StreamHandler& handler, const ServerRequest& request) {
  auto core = std::make_shared<StreamCore>(weak_from_this(), stream_header(m_keep_alive));
  m_stream = core;
  {
    auto handle = std::make_shared<StreamHandle>(core);
    try {
      handler(request, handle);  // a copy: ours outlives the catch, so a throw is not an abort
    } catch (const std::exception& e) {
      core->fail(e.what());
    } catch (...) {
      core->fail("handler failed");
    }
  }  // the handler's copy is gone here; if it kept none and did not answer, the core aborts
  watch_disconnect();
}

void ServerConnection::write_response(Response response) {
  SB_CHECK(response.status >= 100 && response.status <= 999);
  m_response = {};
  m_response.version(11);
  m_response.result(static_cast<unsigned>(response.status));
  m_response.set(bhttp::field::content_type, response.content_type);
  m_response.keep_alive(m_keep_alive);
  m_response.body() = std::move(response.body);
  m_response.prepare_payload();
  m_writing = true;
  bhttp::async_write(m_socket, m_response, [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
    self->on_response_written(ec);
  });
}

void ServerConnection::on_response_written(const beast::error_code& ec) {
  m_writing = false;
  if (m_closed) return;
  if (ec) return close_now();
  if (m_rejecting) return linger_close();
  if (m_stream) return end_exchange();  // a deferred response
  if (!keep_open()) return close_now();
  read_request();
}

void ServerConnection::on_stream_event(StreamCore* core, StreamEvent event) {
  if (m_closed || m_stream.get() != core) return;  // a late event of an exchange already over
  switch (event) {
    case StreamEvent::flush: return flush_stream();
    case StreamEvent::abort: return close_now();
    case StreamEvent::respond:
      if (auto response = core->take_response()) write_response(std::move(*response));
      return;
  }
}

void ServerConnection::flush_stream() {
  if (m_closed || !m_stream || m_writing) return;  // a running write flushes again when done
  bool last = false;
  m_outbox.clear();
  // Nothing queued: producers may write to the socket themselves until they queue again, or one
  // wrote the end of the response itself.
  if (!m_stream->take_pending(m_outbox, last, m_socket.native_handle())) {
    if (last) end_exchange();
    return;
  }
  m_writing = true;
  asio::async_write(m_socket, asio::buffer(m_outbox),
                    [self = shared_from_this(), last](const beast::error_code& ec, std::size_t) {
                      self->m_writing = false;
                      if (self->m_closed) return;
                      if (ec) return self->close_now();
                      if (last) return self->end_exchange();
                      self->flush_stream();
                    });
}

// While a stream runs, a pending read tells at once when the client goes away, so the producer
// can cancel its work; bytes that arrive (a pipelined request) are kept for later.
void ServerConnection::watch_disconnect() {
  if (m_closed || m_watching || !m_stream) return;
  m_watching = true;
  m_socket.async_read_some(m_buffer.prepare(k_watch_bytes),
                           [self = shared_from_this()](const beast::error_code& ec, std::size_t bytes) {
                             self->on_watch(ec, bytes);
                           });
}

void ServerConnection::on_watch(const beast::error_code& ec, std::size_t bytes) {
  m_watching = false;
  if (m_closed) return;
  if (!ec) {
    m_buffer.commit(bytes);
    if (!m_stream) return read_request();
    if (m_buffer.size() < k_max_pipelined_bytes) watch_disconnect();
    return;
  }
  if (ec == asio::error::operation_aborted && !m_stream) return read_request();
  close_now();  // the client went away mid-exchange
}

void ServerConnection::end_exchange() {
  if (auto core = std::exchange(m_stream, nullptr)) core->close();
  if (!keep_open()) return close_now();
  if (m_watching) {
    m_socket.cancel();  // on_watch then reads the next request
    return;
  }
  read_request();
}

void ServerConnection::reject(int status, std::string_view message) {
  m_keep_alive = false;
  m_rejecting = true;
  write_response(error_response(status, message));
}

// Closing with unread request bytes would make the kernel send a reset that can destroy the
// error response in flight; so half-close, drain for a moment, then close.
void ServerConnection::linger_close() {
  beast::error_code ignored;
  m_socket.shutdown(tcp::socket::shutdown_send, ignored);
  m_timer.expires_after(k_linger);
  m_timer.async_wait([self = shared_from_this()](const beast::error_code& ec) {
    if (!ec) self->close_now();
  });
  drain();
}

void ServerConnection::drain() {
  m_buffer.clear();
  m_socket.async_read_some(m_buffer.prepare(64 * 1024),
                           [self = shared_from_this()](const beast::error_code& ec, std::size_t) {
                             if (ec) return self->close_now();
                             self->drain();
                           });
}

void ServerConnection::close_now() {
  if (m_closed) return;
  m_closed = true;
  if (auto core = std::exchange(m_stream, nullptr)) core->close();
  beast::error_code ignored;
  m_socket.shutdown(tcp::socket::shutdown_both, ignored);
  m_socket.close(ignored);
  m_timer.cancel();
  m_idle_timer.cancel();
}

bool ConnectionSet::insert(const std::shared_ptr<ServerConnection>& connection) {
  std::lock_guard lock(m_mutex);
  if (m_closing) return false;
  m_live.emplace(connection.get(), connection);
  return true;
}

void ConnectionSet::erase(const ServerConnection* connection) noexcept {
  std::lock_guard lock(m_mutex);
  m_live.erase(connection);
  if (m_live.empty()) m_empty.notify_all();
}

void ConnectionSet::close_all() {
  std::vector<std::shared_ptr<ServerConnection>> live;
  {
    std::lock_guard lock(m_mutex);
    m_closing = true;
    for (const auto& [key, weak] : m_live) {
      if (auto connection = weak.lock()) live.push_back(std::move(connection));
    }
  }
  for (const auto& connection : live) connection->close_from_any_thread();
}

bool ConnectionSet::wait_empty(std::chrono::milliseconds within) {
  std::unique_lock lock(m_mutex);
  return m_empty.wait_for(lock, within, [&] { return m_live.empty(); });
}

std::size_t ConnectionSet::size() const {
  std::lock_guard lock(m_mutex);
  return m_live.size();
}

void serve_connection(tcp::socket socket, std::shared_ptr<ServerShared> shared) {
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);  // each SSE chunk leaves at once
  auto connection = std::make_shared<ServerConnection>(std::move(socket), shared);
  if (shared->connections.insert(connection)) connection->start();
}

}  // namespace servebench::http::detail
