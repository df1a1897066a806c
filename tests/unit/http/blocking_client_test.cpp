#include "servebench/http/blocking_client.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <thread>

#include "loopback.hpp"
#include "servebench/http/server.hpp"
#include "unit/http/http_test_messages.hpp"

using namespace servebench::http;
using namespace servebench::http::test;
using servebench::util::ErrorKind;

namespace {


std::unique_ptr<BlockingClient> client_of(const std::string& url) {
  auto client = BlockingClient::create(url);
  EXPECT_TRUE(client) << client.error().message;
  return client ? std::move(*client) : nullptr;
}

}  // namespace

TEST(BlockingClient, PostCarriesBodyContentTypeAndHeaders) {
  Server server;
  server.route(Method::post, "/tokenize", [](const ServerRequest& r) {
    return Response{200, fmt::format("{}|{}|{}", r.body, r.header("content-type"), r.header("authorization")),
                    "text/plain"};
  });
  ASSERT_TRUE(server.start());
  auto client = client_of(server.base_url());
  const auto response =
      client->send(Request{Method::post, "/tokenize", "{}", "application/json", {{"Authorization", "Bearer t"}}}, 2000ms);
  ASSERT_TRUE(response) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "{}|application/json|Bearer t");
  EXPECT_EQ(response->content_type, "text/plain");
}

TEST(BlockingClient, Non2xxIsAResponseNotAnError) {
  Server server;
  server.route(Method::post, "/flush_cache", [](const ServerRequest&) {
    return Response{400, "Flush cache failed.", "text/plain"};
  });
  ASSERT_TRUE(server.start());
  const auto response = client_of(server.base_url())->send(Request{Method::post, "/flush_cache", "", "application/json", {}}, 2000ms);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 400);
  EXPECT_EQ(response->body, "Flush cache failed.");
}

TEST(BlockingClient, ReusesItsConnection) {
  Server server;
  server.route(Method::get, "/metrics", [](const ServerRequest&) { return Response{200, "m 1\n", "text/plain"}; });
  ASSERT_TRUE(server.start());
  auto client = client_of(server.base_url());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(client->send(get_request("/metrics"), 2000ms));
  EXPECT_EQ(server.accepted_connections(), 1u);
}

TEST(BlockingClient, ConnectionRefusedIsUnreachable) {
  std::string url;
  {
    Server closed;
    ASSERT_TRUE(closed.start());
    url = closed.base_url();
  }
  const auto response = client_of(url)->send(get_request("/health"), 2000ms);
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().kind, ErrorKind::unreachable);
  EXPECT_NE(response.error().message.find("GET " + url + "/health"), std::string::npos) << response.error().message;
  EXPECT_NE(response.error().message.find("connection refused"), std::string::npos) << response.error().message;
}

TEST(BlockingClient, TimeoutIsAFailure) {
  std::vector<std::shared_ptr<Stream>> held;  // declared first: outlives the server's threads
  std::mutex mutex;
  Server server;
  server.route_stream(Method::get, "/slow", [&](const ServerRequest&, std::shared_ptr<Stream> s) {
    std::lock_guard lock(mutex);
    held.push_back(std::move(s));
  });
  ASSERT_TRUE(server.start());
  const auto begin = std::chrono::steady_clock::now();
  const auto response = client_of(server.base_url())->send(get_request("/slow"), 150ms);
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().kind, ErrorKind::failed);
  EXPECT_NE(response.error().message.find("within 150 ms"), std::string::npos) << response.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
}

TEST(BlockingClient, ServerClosingMidResponseIsAFailure) {
  Server server;
  server.route_stream(Method::get, "/cut", [](const ServerRequest&, std::shared_ptr<Stream> s) { s->send("x"); });
  ASSERT_TRUE(server.start());
  const auto response = client_of(server.base_url())->send(get_request("/cut"), 2000ms);
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().kind, ErrorKind::failed);
}

TEST(BlockingClient, RejectsUrlsThatAreNotPlainHttp) {
  for (const char* bad : {"https://127.0.0.1:8000", "127.0.0.1:8000", "http://"}) {
    const auto client = BlockingClient::create(bad);
    ASSERT_FALSE(client) << bad;
    EXPECT_EQ(client.error().kind, ErrorKind::bad_input);
  }
}

TEST(BlockingClient, IsSafeToShareAcrossThreads) {
  std::atomic<int> served{0};
  Server server(ServerOptions{.io_threads = 2});
  server.route(Method::get, "/n", [&](const ServerRequest&) {
    ++served;
    return Response{200, "n", "text/plain"};
  });
  ASSERT_TRUE(server.start());
  auto client = client_of(server.base_url());
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        const auto r = client->send(get_request("/n"), 2000ms);
        if (r && r->body == "n") ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 100);
  EXPECT_EQ(served.load(), 100);
  EXPECT_EQ(client->base_url(), server.base_url());
}
