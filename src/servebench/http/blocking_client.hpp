#pragma once
// BlockingClient: the control-plane Exchange (flush, metrics, facts, tokenize, health) over a
// keep-alive connection. Internally locked: calls from several threads are served one at a time.
// It runs a StreamClient on a private EventLoop thread, so both clients share one HTTP path.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "servebench/http/exchange.hpp"
#include "servebench/util/result.hpp"

namespace servebench::http {

class BlockingClient final : public Exchange {
 public:
  // A client of `base_url` ("http://host:port[/prefix]"; the prefix is prepended to targets).
  // Fails with ErrorKind::bad_input for a URL that is not plain http, and with
  // ErrorKind::unreachable when the host does not resolve. Connects lazily, on the first send.
  static util::Result<std::unique_ptr<BlockingClient>> create(std::string_view base_url);
  ~BlockingClient() override;

  // Sends `request` and waits for the whole response (any status). `timeout` bounds connect,
  // send and receive together; zero means none. Fails with ErrorKind::unreachable when the
  // server cannot be connected to, and ErrorKind::failed on timeout, a broken connection, a
  // malformed response or a body over 256 MiB; messages name the URL and the reason.
  util::Result<Response> send(const Request& request, std::chrono::milliseconds timeout) override;
  const std::string& base_url() const override;

  struct Impl;

 private:
  explicit BlockingClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace servebench::http
