#include "servebench/http/server.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "loopback.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/http/stream_client.hpp"
#include "unit/http/http_test_messages.hpp"

using namespace servebench::http;
using namespace servebench::http::test;

namespace {


std::unique_ptr<BlockingClient> client_of(const Server& server) {
  auto client = BlockingClient::create(server.base_url());
  EXPECT_TRUE(client) << client.error().message;
  return std::move(*client);
}


// A streaming route whose producer is a separate thread, like the simulator's engine.
struct ProducedStream {
  std::shared_ptr<Stream> stream;
  std::mutex mutex;
  Latch opened, closed;
};

}  // namespace

TEST(Server, AnswersARouteOnAnEphemeralPort) {
  Server server;
  server.route(Method::get, "/health", [](const ServerRequest&) { return text_response("ok"); });
  ASSERT_TRUE(server.start());
  EXPECT_NE(server.port(), 0);
  const auto response = client_of(server)->send(get_request("/health"), 2000ms);
  ASSERT_TRUE(response) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "ok");
  EXPECT_EQ(response->content_type, "text/plain");
}

TEST(Server, BindFailureNamesTheAddress) {
  Server first;
  ASSERT_TRUE(first.start());
  Server second(ServerOptions{.port = first.port()});
  const auto started = second.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().kind, servebench::util::ErrorKind::unreachable);
  EXPECT_NE(started.error().message.find("127.0.0.1:" + std::to_string(first.port())), std::string::npos)
      << started.error().message;
}

TEST(Server, HandlerSeesMethodPathQueryHeadersAndBody) {
  ServerRequest seen;
  Latch handled;  // orders the IO thread's write before the reads below
  Server server;
  server.route(Method::post, "/echo", [&](const ServerRequest& r) {
    seen = r;
    handled.signal();
    return text_response("done");
  });
  ASSERT_TRUE(server.start());
  Request request{Method::post, "/echo?timeout=30&x=1", R"({"k":1})", "application/json", {{"X-Trace", "abc"}}};
  ASSERT_TRUE(client_of(server)->send(request, 2000ms));
  ASSERT_TRUE(handled.wait_for_count(1));
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.path, "/echo");
  EXPECT_EQ(seen.query, "timeout=30&x=1");
  EXPECT_EQ(seen.target, "/echo?timeout=30&x=1");
  EXPECT_EQ(seen.body, R"({"k":1})");
  EXPECT_EQ(seen.header("x-trace"), "abc");
  EXPECT_EQ(seen.header("content-type"), "application/json");
}

TEST(Server, UnknownRouteIs404Json) {
  Server server;
  ASSERT_TRUE(server.start());
  const auto response = client_of(server)->send(get_request("/missing"), 2000ms);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 404);
  EXPECT_EQ(response->content_type, "application/json");
  EXPECT_EQ(response->body, R"({"error":{"message":"no route for GET /missing","code":404}})");
}

TEST(Server, FallbackReplacesThe404) {
  Server server;
  server.set_fallback([](const ServerRequest& r) { return text_response("custom " + r.path, 404); });
  ASSERT_TRUE(server.start());
  const auto response = client_of(server)->send(get_request("/x"), 2000ms);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body, "custom /x");
}

TEST(Server, HandlerExceptionIs500WithItsMessage) {
  Server server;
  server.route(Method::get, "/boom", [](const ServerRequest&) -> Response { throw std::runtime_error("kv pool \"full\""); });
  ASSERT_TRUE(server.start());
  const auto response = client_of(server)->send(get_request("/boom"), 2000ms);
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 500);
  EXPECT_EQ(response->body, R"({"error":{"message":"kv pool \"full\"","code":500}})");
}

TEST(Server, BodyOverTheLimitIs413) {
  std::atomic<int> calls{0};
  Server server(ServerOptions{.body_limit = 1024});
  server.route(Method::post, "/in", [&](const ServerRequest&) {
    ++calls;
    return text_response("taken");
  });
  ASSERT_TRUE(server.start());
  auto client = client_of(server);
  const auto too_big = client->send(post_request("/in", std::string(200 * 1024, 'x')), 3000ms);
  ASSERT_TRUE(too_big) << too_big.error().message;
  EXPECT_EQ(too_big->status, 413);
  EXPECT_NE(too_big->body.find("\"code\":413"), std::string::npos);
  const auto fits = client->send(post_request("/in", std::string(1024, 'x')), 3000ms);
  ASSERT_TRUE(fits) << fits.error().message;
  EXPECT_EQ(fits->status, 200);
  EXPECT_EQ(calls.load(), 1);
}

TEST(Server, MalformedRequestIs400AndCloses) {
  Server server;
  ASSERT_TRUE(server.start());
  // raw_exchange returns only once the server closed the connection.
  const std::string reply = raw_exchange(server.port(), "THIS IS NOT HTTP\r\n\r\n");
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 400")) << reply;
  EXPECT_NE(reply.find("malformed request"), std::string::npos) << reply;
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 0; }));
}

TEST(Server, KeepAliveServesManyRequestsOnOneConnection) {
  Server server;
  server.route(Method::get, "/n", [](const ServerRequest&) { return text_response("n"); });
  ASSERT_TRUE(server.start());
  auto client = client_of(server);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(client->send(get_request("/n"), 2000ms));
  EXPECT_EQ(server.accepted_connections(), 1u);
}

TEST(Server, StreamsChunkedEventStreamFromAProducerThread) {
  std::thread producer;
  Latch spawned;
  Server server;
  server.route_stream(Method::post, "/stream", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    producer = std::thread([stream] {
      for (int i = 0; i < 50; ++i) stream->send("data: " + std::to_string(i) + "\n\n");
      stream->finish();
    });
    spawned.signal();
  });
  ASSERT_TRUE(server.start());
  const std::string reply = raw_exchange(server.port(),
                                         "POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  ASSERT_TRUE(spawned.wait_for_count(1));
  producer.join();
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 200")) << reply;
  EXPECT_NE(reply.find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_NE(reply.find("Transfer-Encoding: chunked"), std::string::npos);
  EXPECT_TRUE(reply.ends_with("0\r\n\r\n"));
  std::size_t last = 0;
  for (int i = 0; i < 50; ++i) {  // every event, in order
    const std::size_t at = reply.find("data: " + std::to_string(i) + "\n\n", last);
    ASSERT_NE(at, std::string::npos) << i;
    last = at;
  }
}

TEST(Server, DeferredCompleteResponseFromAnotherThread) {
  std::thread worker;
  Latch spawned;
  Server server;
  server.route_stream(Method::get, "/later", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    worker = std::thread([stream] { stream->respond(Response{201, R"({"done":true})", "application/json"}); });
    spawned.signal();
  });
  ASSERT_TRUE(server.start());
  const auto response = client_of(server)->send(get_request("/later"), 2000ms);
  ASSERT_TRUE(spawned.wait_for_count(1));
  worker.join();
  ASSERT_TRUE(response) << response.error().message;
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, R"({"done":true})");
}

TEST(Server, OnCloseFiresOnceWhenTheStreamFinishes) {
  std::atomic<int> closes{0};
  Latch closed;
  Server server;
  server.route_stream(Method::get, "/s", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    stream->on_close([&] {
      ++closes;
      closed.signal();
    });
    stream->send("data: x\n\n");
    stream->finish();
  });
  ASSERT_TRUE(server.start());
  auto client = client_of(server);
  ASSERT_TRUE(client->send(get_request("/s"), 2000ms));
  ASSERT_TRUE(closed.wait_for_count(1));
  ASSERT_TRUE(client->send(get_request("/s"), 2000ms));  // the connection serves the next request
  ASSERT_TRUE(closed.wait_for_count(2));
  EXPECT_EQ(closes.load(), 2);
  EXPECT_EQ(server.accepted_connections(), 1u);
}

TEST(Server, OnCloseFiresWhenTheClientDisconnectsMidStream) {
  ProducedStream produced;  // outlives the server: its on_close may run during stop
  Server server;
  server.route_stream(Method::get, "/s", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    stream->on_close([&] { produced.closed.signal(); });
    stream->send("data: first\n\n");
    std::lock_guard lock(produced.mutex);
    produced.stream = std::move(stream);  // the producer keeps it and never finishes
    produced.opened.signal();
  });
  ASSERT_TRUE(server.start());
  const int fd = raw_connect(server.port());
  ASSERT_GE(fd, 0);
  const std::string request = "GET /s HTTP/1.1\r\nHost: x\r\n\r\n";
  raw_send(fd, request);
  ASSERT_TRUE(produced.opened.wait_for_count(1));
  EXPECT_NE(raw_read_until(fd, "data: first").find("data: first"), std::string::npos);
  raw_close(fd);
  ASSERT_TRUE(produced.closed.wait_for_count(1));  // without any further send by the producer
  std::lock_guard lock(produced.mutex);
  EXPECT_TRUE(produced.stream->closed());
  produced.stream->send("data: ignored\n\n");  // a no-op once closed
}

TEST(Server, DroppingTheStreamWithoutFinishClosesTheConnection) {
  Server server;
  server.route_stream(Method::get, "/s", [](const ServerRequest&, std::shared_ptr<Stream> stream) {
    stream->send("data: partial\n\n");  // and the handle is dropped
  });
  ASSERT_TRUE(server.start());
  const std::string reply = raw_exchange(server.port(), "GET /s HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(reply.find("data: partial"), std::string::npos);
  EXPECT_FALSE(reply.ends_with("0\r\n\r\n"));  // cut short: the client can tell
}

TEST(Server, StreamHandlerExceptionBeforeSendingIs500) {
  Server server;
  server.route_stream(Method::get, "/s", [](const ServerRequest&, std::shared_ptr<Stream>) {
    throw std::runtime_error("bad sampling params");
  });
  ASSERT_TRUE(server.start());
  const auto response = client_of(server)->send(get_request("/s"), 2000ms);
  ASSERT_TRUE(response) << response.error().message;
  EXPECT_EQ(response->status, 500);
  EXPECT_NE(response->body.find("bad sampling params"), std::string::npos);
}

TEST(Server, SendNeverBlocksOnASlowClient) {
  ProducedStream produced;  // outlives the server: its on_close may run during stop
  Server server;
  const std::string chunk(1000, 'z');
  server.route_stream(Method::get, "/s", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    std::lock_guard lock(produced.mutex);
    produced.stream = std::move(stream);
    produced.opened.signal();
  });
  ASSERT_TRUE(server.start());
  const int fd = raw_connect(server.port());
  const std::string request = "GET /s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  raw_send(fd, request);
  ASSERT_TRUE(produced.opened.wait_for_count(1));
  // 20 MB queued while the client reads nothing: far beyond the socket buffers.
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < 20000; ++i) produced.stream->send(chunk);
  produced.stream->finish();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
  const std::string reply = raw_read_until(fd, "\r\n0\r\n\r\n");
  raw_close(fd);
  EXPECT_TRUE(reply.ends_with("\r\n0\r\n\r\n"));
  EXPECT_GT(reply.size(), 20000u * 1000u);
}

TEST(Server, StopClosesOpenStreamsAndReturnsPromptly) {
  ProducedStream produced;  // outlives the server: its on_close may run during stop
  Server server;
  server.route_stream(Method::get, "/s", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    stream->on_close([&] { produced.closed.signal(); });
    std::lock_guard lock(produced.mutex);
    produced.stream = std::move(stream);
    produced.opened.signal();
  });
  ASSERT_TRUE(server.start());
  const int fd = raw_connect(server.port());
  const std::string request = "GET /s HTTP/1.1\r\nHost: x\r\n\r\n";
  raw_send(fd, request);
  ASSERT_TRUE(produced.opened.wait_for_count(1));
  const auto begin = std::chrono::steady_clock::now();
  server.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 1s);
  EXPECT_EQ(produced.closed.count(), 1);
  raw_close(fd);
}

TEST(Server, ADisconnectMidStreamDoesNotDisturbOtherStreams) {
  std::mutex mutex;
  std::vector<std::shared_ptr<Stream>> streams;
  Latch opened, one_closed;
  Server server;
  server.route_stream(Method::get, "/s", [&](const ServerRequest&, std::shared_ptr<Stream> stream) {
    stream->send("data: hello\n\n");
    std::lock_guard lock(mutex);
    streams.push_back(std::move(stream));
    opened.signal();
  });
  ASSERT_TRUE(server.start());
  ClientLoop client(server.base_url());
  std::vector<RecordingSink> sinks(5);
  for (auto& sink : sinks) client.start(Request{Method::get, "/s", "", "application/json", {}}, sink);
  ASSERT_TRUE(opened.wait_for_count(5));
  const int quitter = raw_connect(server.port());
  raw_send(quitter, "GET /s HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(opened.wait_for_count(6));
  {
    std::lock_guard lock(mutex);
    streams.back()->on_close([&] { one_closed.signal(); });
  }
  raw_close(quitter);
  ASSERT_TRUE(one_closed.wait_for_count(1));
  {
    std::lock_guard lock(mutex);
    for (auto& stream : streams) {
      stream->send("data: more\n\n");
      stream->finish();
    }
  }
  for (auto& sink : sinks) {
    ASSERT_TRUE(sink.done.wait_for_count(1));
    EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
    EXPECT_EQ(sink.body, "data: hello\n\ndata: more\n\n");
  }
}

TEST(Server, AnswersExpectContinueBeforeTheBody) {
  Server server;
  server.route(Method::post, "/in", [](const ServerRequest& r) { return text_response(std::to_string(r.body.size())); });
  ASSERT_TRUE(server.start());
  const int fd = raw_connect(server.port());
  raw_send(fd, "POST /in HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\nExpect: 100-continue\r\n\r\n");
  // The interim answer comes while the body has not been sent (curl waits a second for it).
  EXPECT_EQ(raw_read_until(fd, "\r\n\r\n"), "HTTP/1.1 100 Continue\r\n\r\n");
  raw_send(fd, std::string(2000, 'b'));
  const std::string reply = raw_read_until(fd, "2000");
  raw_close(fd);
  EXPECT_TRUE(reply.starts_with("HTTP/1.1 200")) << reply;
  EXPECT_TRUE(reply.ends_with("\r\n\r\n2000")) << reply;
}
