#pragma once
// StreamClient: the measured load path. One client per EventLoop, used only on that loop's
// thread (no locks): it sends requests on pooled keep-alive connections to one server and
// reports each response to a StreamSink as it arrives, with the time each socket read returned.
// Servers close keep-alive connections (after each response, after an idle timeout, after N
// requests): a pooled connection is peeked for EOF before reuse, "Connection: close" and HTTP/1.0
// are honoured, and a request that fails on a reused connection before any response byte arrived
// goes again, once, on a fresh one (StreamOutcome::reconnects; the time is the request's).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "servebench/http/event_loop.hpp"
#include "servebench/http/exchange.hpp"
#include "servebench/http/url.hpp"
#include "servebench/util/clock.hpp"
#include "servebench/util/result.hpp"

namespace servebench::http {

enum class StreamResult {
  ok,               // a complete 2xx response
  http_status,      // a complete non-2xx response (body in on_body and StreamOutcome::error_body)
  connect_refused,  // no connection could be made (refused, unreachable, …; message says which)
  reset,            // the connection closed or broke before the response was complete
  timeout,          // the per-request deadline passed
  stalled,          // no byte arrived for the stall limit (the server stopped answering mid-request)
  malformed,        // the response is not valid HTTP/1.1
  cancelled,        // cancel_all() or the client's destruction
};
// "ok", "http_status", "connect_refused", "reset", "timeout", "stalled", "malformed", "cancelled".
std::string_view to_string(StreamResult result);

struct StreamOutcome {
  StreamResult result = StreamResult::ok;
  int status = 0;          // the response status; 0 when no response header arrived
  std::string error_body;  // http_status: the body's first StreamClientOptions::max_error_body bytes
  std::string message;     // for anything but ok: "cannot connect to 127.0.0.1:9: connection refused"
  int reconnects = 0;      // 1 when the request went again on a fresh connection (see StreamClient)
};

// Receives one request's progress, on the loop thread, in this order: on_sent, on_headers,
// on_body…, on_done — or on_done alone when it failed earlier. No std::function per chunk.
class StreamSink {
 public:
  // The request bytes are being handed to the socket (after connecting, if a new connection).
  virtual void on_sent(util::TimePoint sent_at) = 0;
  // The response header arrived.
  virtual void on_headers(int status, std::string_view content_type) = 0;
  // Body bytes, transfer coding removed. `received_at` is when the socket read returned, taken
  // before any parsing; the pieces of one read share it. Non-2xx bodies arrive here too.
  virtual void on_body(std::string_view bytes, util::TimePoint received_at) = 0;
  // Exactly once per start(), last. The sink may start another request from here.
  virtual void on_done(const StreamOutcome& outcome) = 0;

 protected:
  ~StreamSink() = default;
};

// Told after each socket read has been parsed (every sink callback of that read has returned),
// on the loop thread: how long ago the kernel queued the read's newest bytes on the socket
// (its receive timestamp, SO_TIMESTAMPNS) — the delay from socket readability to parsed event,
// whatever delayed it (a busy loop, other sockets' work, the scheduler). No allocation.
class ReadObserver {
 public:
  virtual void on_read_parsed(std::chrono::nanoseconds since_arrival) = 0;

 protected:
  ~ReadObserver() = default;
};

struct StreamClientOptions {
  std::size_t max_error_body = 4096;         // bytes of a non-2xx body kept in StreamOutcome
  std::size_t read_chunk = 16 * 1024;        // bytes asked of each socket read (reserved per connection)
  std::size_t max_idle_connections = 4096;   // idle keep-alive connections kept per client
  const util::Clock* clock = &util::steady_clock();  // stamps on_sent / on_body
  ReadObserver* read_observer = nullptr;     // receive-timestamp lag per read; nullptr: not measured
};

class StreamClient {
 public:
  // A client of the server at `url` (its prefix is prepended to every target), doing its IO on
  // `loop`, which must outlive it. Resolves the host now; fails with ErrorKind::unreachable
  // when the name does not resolve.
  static util::Result<std::unique_ptr<StreamClient>> create(EventLoop& loop, const Url& url,
                                                            StreamClientOptions options = {});
  // On the loop thread, or after the loop stopped: in-flight requests end with cancelled.
  ~StreamClient();
  StreamClient(const StreamClient&) = delete;
  StreamClient& operator=(const StreamClient&) = delete;

  // Sends `request` on an idle pooled connection (or a new one) and reports to `sink`, which
  // must live until its on_done. `timeout` (zero: none) bounds the whole exchange; `stall` (zero:
  // none) bounds the silence: from sending until the first response byte and between reads. A
  // stall is checked by one timer per request that wakes once per `stall`, not per read. Loop thread.
  void start(Request request, StreamSink& sink, std::chrono::nanoseconds timeout = {},
             std::chrono::nanoseconds stall = {});
  // Ends every in-flight request with cancelled (their connections are closed). Loop thread.
  void cancel_all();

  std::size_t in_flight() const noexcept;
  std::size_t idle_connections() const noexcept;
  std::uint64_t connections_opened() const noexcept;  // connects that succeeded, ever
  const Url& url() const noexcept;

  struct Impl;

 private:
  explicit StreamClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace servebench::http
