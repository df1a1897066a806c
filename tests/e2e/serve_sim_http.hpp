#pragma once
// Talking to a serve-sim child in end-to-end tests: the project's blocking client for whole
// exchanges, SSE decoding of streamed bodies, /metrics polling with a deadline, and a raw socket
// for clients that misbehave (leave mid-stream, never read).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <functional>

#include "e2e/serve_sim_process.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/http/sse_decoder.hpp"
#include "servebench/http/url.hpp"
#include "servebench/wire/prometheus.hpp"
#include "support/wait_for.hpp"

namespace servebench::e2e {

using namespace std::chrono_literals;

struct Sim {
  Sim(std::vector<std::string> extra, const std::string& name)
      : process(start_servebench(serve_sim_args(std::move(extra)), name)) {
    url = process.wait_for_line(k_listening_prefix, 60s).value_or("");
    EXPECT_FALSE(url.empty()) << process.stderr_text();
    if (!url.empty()) client = http::BlockingClient::create(url).value();
  }
  bool up() const { return client != nullptr; }

  http::Response post(std::string target, std::string body, http::BlockingClient* via = nullptr) {
    auto r = (via ? via : client.get())
                 ->send({http::Method::post, std::move(target), std::move(body), "application/json", {}}, 60s);
    EXPECT_TRUE(r) << r.error().message;
    return r.value_or(http::Response{});
  }
  http::Response get(std::string target) {
    auto r = client->send({http::Method::get, std::move(target), "", "application/json", {}}, 60s);
    EXPECT_TRUE(r) << r.error().message;
    return r.value_or(http::Response{});
  }
  double metric(std::string_view name) {
    return wire::sum_metric(wire::parse_prometheus(get("/metrics").body), name).value_or(-1);
  }
  // Polls /metrics until `predicate(metric(name))` or 20 s (the server has no push channel).
  bool metric_becomes(std::string_view name, const std::function<bool(double)>& predicate) {
    return testing::wait_until([&] { return predicate(metric(name)); }, 20s, 2ms);
  }
  std::uint16_t port() const { return http::parse_url(url).value().port; }

  ChildProcess process;
  std::string url;
  std::unique_ptr<http::BlockingClient> client;
};

// The JSON events of an SSE body; `done` tells whether "data: [DONE]" came.
inline std::vector<boost::json::object> sse_objects(const std::string& body, bool* done = nullptr) {
  std::vector<boost::json::object> out;
  if (done) *done = false;
  http::SseDecoder decoder;
  decoder.feed(body, [&](const http::SseEvent& e) {
    if (e.data == "[DONE]") {
      if (done) *done = true;
      return;
    }
    out.push_back(boost::json::parse(e.data).as_object());
  });
  return out;
}

inline std::string error_message(const http::Response& r) {
  const auto v = boost::json::parse(r.body);
  return std::string(v.at("message").as_string());
}

// A blocking socket to 127.0.0.1:port for clients our own client would never be.
class RawClient {
 public:
  explicit RawClient(std::uint16_t port) : m_fd(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) close_now();
  }
  ~RawClient() { close_now(); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  void send_post(std::string_view target, std::string_view body) {
    const std::string request = "POST " + std::string(target) +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                "application/json\r\nContent-Length: " +
                                std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
    for (std::size_t sent = 0; m_fd >= 0 && sent < request.size();) {
      const ssize_t n = ::send(m_fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;
      sent += static_cast<std::size_t>(n);
    }
  }
  // Reads until `needle` was seen or `within` passed; returns what was read.
  std::string read_until(std::string_view needle, std::chrono::milliseconds within = 20s) {
    std::string got;
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (m_fd >= 0 && got.find(needle) == std::string::npos) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{m_fd, POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) != 1) break;
      char buf[4096];
      const ssize_t n = recv(m_fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    return got;
  }
  void close_now() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

 private:
  int m_fd;
};

}  // namespace servebench::e2e
