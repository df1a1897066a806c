// Read deadlines of the server: a request's head and body must arrive within their timeouts
// (slowloris), while an idle keep-alive connection may wait for its next request.
#include <gtest/gtest.h>

#include <thread>

#include "loopback.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/http/server.hpp"
#include "unit/http/http_test_messages.hpp"

using namespace servebench::http;
using namespace servebench::http::test;

namespace {


// Sends one byte of `bytes` every 20 ms until the server dropped the connection or 15 s passed.
bool trickle_until_dropped(const Server& server, int fd, const std::string& bytes) {
  const auto give_up = std::chrono::steady_clock::now() + 15s;
  for (std::size_t i = 0; std::chrono::steady_clock::now() < give_up; ++i) {
    if (server.open_connections() == 0) return true;
    raw_send(fd, std::string_view(bytes).substr(i % bytes.size(), 1));
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

}  // namespace

TEST(ServerTimeouts, AHeadTrickledByteByByteIsDroppedAtTheHeaderTimeout) {
  Server server(ServerOptions{.header_timeout = 200ms});
  server.route(Method::get, "/n", [](const ServerRequest&) { return text_response("n"); });
  ASSERT_TRUE(server.start());
  const int fd = raw_connect(server.port());
  raw_send(fd, "GET /n HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  ASSERT_TRUE(eventually([&] { return server.open_connections() == 1; }));
  EXPECT_TRUE(trickle_until_dropped(server, fd, "abcdefgh"));
  raw_close(fd);
}

TEST(ServerTimeouts, ABodyTrickledByteByByteIsDroppedAtTheBodyTimeout) {
  Server server(ServerOptions{.header_timeout = 60s, .body_timeout = 200ms});
  server.route(Method::post, "/in", [](const ServerRequest&) { return text_response("taken"); });
  ASSERT_TRUE(server.start());
  const int fd = raw_connect(server.port());
  raw_send(fd, "POST /in HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return server.open_connections() == 1; }));
  EXPECT_TRUE(trickle_until_dropped(server, fd, "x"));
  raw_close(fd);
}

TEST(ServerTimeouts, AnIdleKeepAliveConnectionOutlivesTheHeaderTimeout) {
  Server server(ServerOptions{.header_timeout = 50ms, .body_timeout = 50ms});
  server.route(Method::get, "/n", [](const ServerRequest&) { return text_response("n"); });
  ASSERT_TRUE(server.start());
  auto client = BlockingClient::create(server.base_url());
  ASSERT_TRUE(client) << client.error().message;
  const Request get{Method::get, "/n", "", "application/json", {}};
  ASSERT_TRUE((*client)->send(get, 5000ms));
  std::this_thread::sleep_for(300ms);  // six header timeouts of idleness
  const auto again = (*client)->send(get, 5000ms);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(server.accepted_connections(), 1u);
}
