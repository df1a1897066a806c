#pragma once
// Private to the http module (stream_client.cpp, stream_connection.cpp): one pooled keep-alive
// connection of a StreamClient and the request running on it. Pulls in Asio/Beast.
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/string_body.hpp>
#include <fmt/format.h>

#include "servebench/http/event_loop_impl.hpp"
#include "servebench/http/read_poller.hpp"
#include "servebench/http/stream_client.hpp"

namespace servebench::http::detail {

class Connection;

// A Beast parser that hands body bytes straight from the read buffer to the connection (no body
// copy, no allocation); the connection forwards them to its sink.
class ResponseParser final : public boost::beast::http::basic_parser<false> {
 public:
  explicit ResponseParser(Connection& connection);

 private:
  // Beast's string_view is boost::core::string_view here; it converts to std::string_view.
  using bsv = boost::beast::string_view;
  using ec_t = boost::beast::error_code;
  void on_request_impl(boost::beast::http::verb, bsv, bsv, int, ec_t&) override {}
  void on_response_impl(int status, bsv, int, ec_t&) override { m_status = status; }
  void on_field_impl(boost::beast::http::field name, bsv, bsv value, ec_t&) override;
  void on_header_impl(ec_t&) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>&, ec_t&) override {}
  std::size_t on_body_impl(bsv body, ec_t&) override;
  void on_chunk_header_impl(std::uint64_t, bsv, ec_t&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, bsv body, ec_t& ec) override { return on_body_impl(body, ec); }
  void on_finish_impl(ec_t&) override {}

  Connection& m_connection;
  int m_status = 0;
  std::string_view m_content_type;
};

}  // namespace servebench::http::detail

namespace servebench::http {

struct StreamClient::Impl {
  Impl(EventLoop& l, Url u, StreamClientOptions o) : loop(l), url(std::move(u)), options(o) {}
  ~Impl();

  void start(Request&& request, StreamSink& sink, std::chrono::nanoseconds timeout, std::chrono::nanoseconds stall);
  void cancel_all();
  void release(detail::Connection& connection, bool reusable);
  std::string host_port() const { return fmt::format("{}:{}", url.host, url.port); }
  // What a pooled connection turned out to be when reused: closed by the server (found closed when
  // taken from the pool, or a request written into it got nothing back) or still open.
  void note_reuse(bool server_closed) { closed_in_a_row = server_closed ? closed_in_a_row + 1 : 0; }
  // Whether a finished connection goes back to the pool. After k_closed_streak pooled connections in
  // a row were closed by the server (llama-server closes every connection after a streamed
  // response, just after the last chunk), keeping them only costs a failed write and a reconnect
  // inside the next request's TTFT, so each request connects anew; every k_probe_every-th release is
  // pooled anyway, and one reuse that works turns pooling back on.
  bool keep_in_pool() { return closed_in_a_row < k_closed_streak || ++unpooled % k_probe_every == 0; }
  static constexpr int k_closed_streak = 3;
  static constexpr std::uint64_t k_probe_every = 64;

  EventLoop& loop;
  Url url;
  StreamClientOptions options;
  std::vector<boost::asio::ip::tcp::endpoint> endpoints;
  std::string host_header;
  std::vector<std::shared_ptr<detail::Connection>> idle;
  std::vector<std::shared_ptr<detail::Connection>> active;
  std::uint64_t opened = 0;
  int closed_in_a_row = 0;      // pooled connections the server had closed, since the last that worked
  std::uint64_t unpooled = 0;   // releases not pooled because of that
  bool closing = false;
};

}  // namespace servebench::http

namespace servebench::http::detail {

// One keep-alive connection and the request running on it. Asio connects; then the socket
// leaves Asio's reactor (so an arrival wakes one epoll, not two) and the loop's ReadPoller
// watches it until the close: each readiness gets one recvmsg (another only when that one filled
// the buffer, or the peer hung up). A request is written with one sendmsg of what Beast's
// serializer renders; only a socket that does not take it all goes back to Asio for the rest.
// Completion handlers hold a shared_ptr and the attempt number, so a late completion of an
// earlier attempt does nothing; the timer holds the call number (one per request, which may
// span two attempts).
class Connection final : public std::enable_shared_from_this<Connection>, public ReadyHandler {
 public:
  struct Limits {
    std::chrono::nanoseconds total{0}, stall{0};  // zero: none
  };
  Connection(StreamClient::Impl& owner, EventLoopImpl& loop);
  ~Connection();

  // `reused`: the connection came from the pool, so the server may have closed it meanwhile.
  void begin(Request&& request, StreamSink& sink, Limits limits, bool reused);
  void cancel() { finish(StreamResult::cancelled, "cancelled", false); }
  // An idle connection the server has not closed (a peek finds neither EOF nor stray bytes).
  bool reusable_now();
  void close_socket();
  void detach() { m_owner = nullptr; }

  // Parser side.
  void on_header(int status, std::string_view content_type);
  void on_body(std::string_view bytes);
  // ReadPoller side: the socket became readable (or hung up).
  void on_ready(std::uint32_t events) override;

  std::size_t active_index = 0;  // position in the owner's active list

 private:
  // What one read found: bytes, and the receive queue is empty now (drained) or may not be (more:
  // the buffer filled); no bytes (empty: a spurious edge); or the request ended (end of file or an
  // error, already reported).
  enum class ReadStatus { drained, more, empty, ended };
  void connect();
  void on_connected(const boost::asio::ip::tcp::endpoint& peer);
  void send();
  // Hands what the socket did not take to Asio (the socket is Asio's again until it is written).
  void send_rest();
  void on_send_failed(const boost::beast::error_code& ec);
  ReadStatus read_once();
  void on_read_error(const boost::beast::error_code& ec);
  void parse();
  void observe_read();
  void finish_at_eof();
  // Waits until `m_stall` after the last byte (or the send); ends the request as stalled then.
  void watch_stall(std::uint64_t call);
  // Before any response byte on a reused connection, a failure means the server had closed it:
  // the request goes again, once, on a fresh connection. True when it did.
  bool retried();
  void finish(StreamResult result, std::string message, bool reusable);
  bool stale(std::uint64_t attempt) const { return attempt != m_attempt || m_sink == nullptr; }

  StreamClient::Impl* m_owner;
  EventLoopImpl& m_loop;
  const util::Clock& m_clock;
  boost::asio::ip::tcp::socket m_socket;  // open while connecting, and while Asio writes a request's rest
  int m_fd = -1;                          // the connected socket (this connection's to close unless Asio holds it)
  boost::asio::ip::tcp m_protocol = boost::asio::ip::tcp::v4();
  boost::asio::steady_timer m_timer;
  boost::asio::steady_timer m_stall_timer;
  boost::beast::flat_buffer m_buffer;
  std::optional<ResponseParser> m_parser;
  boost::beast::http::request<boost::beast::http::string_body> m_request;
  std::optional<boost::beast::http::serializer<true, boost::beast::http::string_body>> m_serializer;
  StreamSink* m_sink = nullptr;
  std::uint64_t m_call = 0, m_attempt = 0;
  util::TimePoint m_read_at{};
  std::optional<timespec> m_arrival;  // the kernel's receive timestamp of the last read (CLOCK_REALTIME)
  util::TimePoint m_last_byte{};  // the last read that returned bytes, or the start of the request
  std::chrono::nanoseconds m_stall{0};
  int m_status = 0;
  int m_reconnects = 0;
  std::string m_error_body;
  bool m_open = false;
  bool m_writing = false;
  bool m_timer_armed = false;
  bool m_stall_armed = false;
  bool m_reused = false;
  bool m_got_bytes = false;
  ReadPoller::Token m_watch = 0;  // the socket's registration with the loop's ReadPoller
};

}  // namespace servebench::http::detail
