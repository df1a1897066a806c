#pragma once
// Server: HTTP/1.1 (keep-alive) server scaffolding for the simulator and for test servers.
// Routes are method + exact path. Requests are served on `io_threads` IO threads; each
// connection is on its own strand, so one connection's handlers never run concurrently.
// Built-in answers (bodies from error_response): no route → 404 (405 when the path exists for
// another method) unless a fallback is set; body over `body_limit` → 413 and close; malformed
// HTTP → 400 and close; a handler exception → 500 with its message; a request head or body slower
// than its timeout → the connection is closed.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "servebench/http/handler.hpp"
#include "servebench/http/router.hpp"
#include "servebench/util/result.hpp"

namespace servebench::http {

struct ServerOptions {
  std::string host = "127.0.0.1";            // an IP literal or a name ("localhost")
  std::uint16_t port = 0;                    // 0: an ephemeral port, see Server::port()
  int io_threads = 1;
  std::size_t body_limit = std::size_t{64} << 20;  // bytes of request body; larger → 413
  // From a request's first byte to the end of its head, then from there to the end of its body;
  // a request slower than that is dropped (connection closed). An idle connection has no limit.
  std::chrono::milliseconds header_timeout{10'000}, body_timeout{60'000};
  // How the server treats keep-alive connections, as real servers do (tests of clients use them):
  bool close_after_response = false;           // close right after each response, unannounced
  std::chrono::milliseconds keepalive_timeout{0};  // close a connection idle this long; 0: never
  std::int64_t max_requests_per_connection = 0;    // the last says "Connection: close"; 0: no limit
};

class Server {
 public:
  explicit Server(ServerOptions options = {});
  ~Server();  // stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Registration happens before start(); a later registration of a method + path replaces.
  void route(Method method, std::string path, Handler handler);
  void route_stream(Method method, std::string path, StreamHandler handler);
  void set_fallback(Handler handler);
  void set_gate(Router::Gate gate);  // before routing, see Router::set_gate

  // Binds, listens and starts the IO threads. Fails with ErrorKind::unreachable naming the
  // address ("cannot listen on 127.0.0.1:8000: address already in use"). At most once.
  util::Result<void> start();
  // Stops accepting, closes every connection (each open Stream's on_close runs), joins the IO
  // threads. Prompt (bounded by ~2 s even if a handler misbehaves); idempotent; never from a
  // handler or an on_close callback (it joins their thread).
  void stop();

  std::uint16_t port() const noexcept;  // the bound port once started
  std::string base_url() const;         // "http://127.0.0.1:<port>"
  std::uint64_t accepted_connections() const noexcept;
  std::size_t open_connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace servebench::http
