#include "servebench/http/stream_client.hpp"

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "loopback.hpp"
#include "servebench/http/server.hpp"
#include "servebench/http/sse_decoder.hpp"
#include "servebench/http/sse_encoder.hpp"
#include "unit/http/http_test_messages.hpp"

using namespace servebench::http;
using namespace servebench::http::test;

namespace {


// A server whose /stream route emits `events` SSE events from a producer thread, `gap` apart.
class StreamingServer {
 public:
  explicit StreamingServer(int events = 20, std::chrono::microseconds gap = 1000us) {
    server.route_stream(Method::post, "/stream", [this, events, gap](const ServerRequest&, std::shared_ptr<Stream> s) {
      std::lock_guard lock(m_mutex);
      m_producers.emplace_back([s, events, gap] {
        std::string frame;
        for (int i = 0; i < events; ++i) {
          frame.clear();
          append_sse_data(frame, std::to_string(i));
          s->send(frame);
          std::this_thread::sleep_for(gap);  // token pacing, not synchronisation
        }
        frame.clear();
        append_sse_done(frame);
        s->send(frame);
        s->finish();
      });
    });
    server.route(Method::get, "/error", [](const ServerRequest&) {
      return Response{429, std::string(100, 'e'), "application/json"};
    });
    server.route(Method::get, "/v2/ping", [](const ServerRequest&) { return Response{200, "pong", "text/plain"}; });
    server.route_stream(Method::get, "/hang", [this](const ServerRequest&, std::shared_ptr<Stream> s) {
      s->on_close([this] { hung_closed.signal(); });
      std::lock_guard lock(m_mutex);
      m_hung.push_back(std::move(s));  // never answered
      hung_opened.signal();
    });
    server.route_stream(Method::get, "/cut", [](const ServerRequest&, std::shared_ptr<Stream> s) {
      s->send("data: partial\n\n");  // then dropped: the server closes the connection
    });
    EXPECT_TRUE(server.start());
  }
  ~StreamingServer() {
    server.stop();
    std::lock_guard lock(m_mutex);
    for (auto& t : m_producers) t.join();
  }
  Server server;
  Latch hung_opened, hung_closed;

 private:
  std::mutex m_mutex;
  std::vector<std::thread> m_producers;
  std::vector<std::shared_ptr<Stream>> m_hung;
};

Request stream_request() { return Request{Method::post, "/stream", R"({"stream":true})", "application/json", {}}; }

std::vector<std::string> events_of(const std::string& body) {
  std::vector<std::string> out;
  SseDecoder decoder;
  decoder.feed(body, [&](const SseEvent& e) { out.emplace_back(e.data); });
  return out;
}

// A sink that starts the next request from on_done until `remaining` runs out (a closed loop).
class ChainSink final : public StreamSink {
 public:
  ChainSink(StreamClient*& client, int remaining) : m_client(client), m_remaining(remaining) {}
  void on_sent(servebench::util::TimePoint) override {}
  void on_headers(int, std::string_view) override {}
  void on_body(std::string_view, servebench::util::TimePoint) override {}
  void on_done(const StreamOutcome& outcome) override {
    if (outcome.result == StreamResult::ok) ++ok;
    reconnects += outcome.reconnects;
    if (--m_remaining > 0) {
      m_client->start(get_request("/v2/ping"), *this);
    } else {
      finished.signal();
    }
  }
  int ok = 0;
  int reconnects = 0;
  Latch finished;

 private:
  StreamClient*& m_client;
  int m_remaining;
};

// Answers the first request of its first connection with a keep-alive response, then closes that
// connection, unannounced, the moment the next request arrives on it (a server that had just
// closed it). Later connections get one answer each (or none: `answer_later` false) and close.
class ClosesOnSecondRequest {
 public:
  explicit ClosesOnSecondRequest(bool answer_later) {
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(m_listen, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(m_listen, 8);
    socklen_t n = sizeof a;
    ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&a), &n);
    m_port = ntohs(a.sin_port);
    m_thread = std::thread([this, answer_later] {
      static constexpr std::string_view k_ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
      for (int c = 0; c < 3 && !m_stop; ++c) {
        pollfd p{m_listen, POLLIN, 0};
        if (::poll(&p, 1, 5000) <= 0) return;
        const int fd = ::accept(m_listen, nullptr, nullptr);
        if (fd < 0) return;
        ++accepted;
        raw_read_until(fd, "\r\n\r\n");
        if (c == 0 || answer_later) ::send(fd, k_ok.data(), k_ok.size(), MSG_NOSIGNAL);
        if (c == 0) raw_read_until(fd, "\r\n\r\n");  // the next request: close instead of answering
        ::close(fd);
      }
    });
  }
  ~ClosesOnSecondRequest() {
    m_stop = true;
    ::shutdown(m_listen, SHUT_RDWR);
    m_thread.join();
    ::close(m_listen);
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
  std::atomic<int> accepted{0};

 private:
  int m_listen = -1;
  std::uint16_t m_port = 0;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

}  // namespace

TEST(StreamClient, ARequestOnAConnectionTheServerClosedGoesAgainOnceOnAFreshOne) {
  ClosesOnSecondRequest server(true);
  ClientLoop client(server.base_url());
  RecordingSink first, second;
  client.start(get_request("/"), first);
  ASSERT_TRUE(first.done.wait_for_count(1));
  EXPECT_EQ(first.outcome.result, StreamResult::ok) << first.outcome.message;
  EXPECT_EQ(first.outcome.reconnects, 0);
  client.start(get_request("/"), second);
  ASSERT_TRUE(second.done.wait_for_count(1));
  EXPECT_EQ(second.outcome.result, StreamResult::ok) << second.outcome.message;
  EXPECT_EQ(second.outcome.reconnects, 1);
  EXPECT_EQ(second.body, "ok");
  EXPECT_EQ(server.accepted.load(), 2);
}

TEST(StreamClient, ASecondFailureAfterReconnectingIsAFailureWithItsReason) {
  ClosesOnSecondRequest server(false);
  ClientLoop client(server.base_url());
  RecordingSink first, second;
  client.start(get_request("/"), first);
  ASSERT_TRUE(first.done.wait_for_count(1));
  client.start(get_request("/"), second);
  ASSERT_TRUE(second.done.wait_for_count(1));
  EXPECT_EQ(second.outcome.result, StreamResult::reset);
  EXPECT_EQ(second.outcome.reconnects, 1);
  EXPECT_NE(second.outcome.message.find("(after reconnecting once)"), std::string::npos) << second.outcome.message;
}

TEST(StreamClient, ConnectionsOfAServerThatClosesThemAreNotReusedOrAreRetried) {
  std::vector<ServerOptions> modes(3);
  modes[0].close_after_response = true;
  modes[1].keepalive_timeout = std::chrono::milliseconds(1);
  modes[2].max_requests_per_connection = 2;
  for (const ServerOptions& options : modes) {
    Server server(options);
    server.route(Method::get, "/v2/ping", [](const ServerRequest&) { return Response{200, "pong", "text/plain"}; });
    ASSERT_TRUE(server.start());
    ClientLoop client(server.base_url());
    StreamClient* raw = client.client.get();
    ChainSink chain(raw, 40);
    client.start(get_request("/v2/ping"), chain);
    ASSERT_TRUE(chain.finished.wait_for_count(1));
    EXPECT_EQ(chain.ok, 40);
    if (options.max_requests_per_connection == 2) {
      EXPECT_EQ(server.accepted_connections(), 20u);
    }
    if (options.close_after_response) {
      // The pool learns that this server closes every connection: after the first few, requests
      // connect anew instead of writing into a closed socket and reconnecting inside their TTFT
      // (whether the close races the reuse check depends on the machine's load). Either way each
      // request costs one connection: a reconnect replaces the stale one the pool handed out.
      EXPECT_LE(chain.reconnects, 3);
      EXPECT_EQ(server.accepted_connections(), 40u);
    }
  }
}

TEST(StreamClient, StreamsChunksInOrderWithMonotonicReadTimes) {
  StreamingServer server(20);
  ClientLoop client(server.server.base_url());
  RecordingSink sink;
  client.start(stream_request(), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  EXPECT_EQ(sink.order, "shbd");
  EXPECT_EQ(sink.status, 200);
  EXPECT_EQ(sink.content_type, "text/event-stream");
  const auto events = events_of(sink.body);
  ASSERT_EQ(events.size(), 21u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(events[i], std::to_string(i));
  EXPECT_EQ(events[20], "[DONE]");
  EXPECT_GT(sink.pieces.size(), 5u);  // paced events arrive in separate reads
  EXPECT_TRUE(std::is_sorted(sink.read_times.begin(), sink.read_times.end()));
  EXPECT_LE(sink.sent_at, sink.read_times.front());
  EXPECT_GT(sink.read_times.back() - sink.read_times.front(), 10ms);  // stamped on arrival, not at the end
}

TEST(StreamClient, ReusesOneKeepAliveConnectionForSequentialRequests) {
  StreamingServer server(3, 0us);
  ClientLoop client(server.server.base_url());
  for (int i = 0; i < 10; ++i) {
    RecordingSink sink;
    client.start(stream_request(), sink);
    ASSERT_TRUE(sink.done.wait_for_count(1));
    ASSERT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  }
  EXPECT_EQ(server.server.accepted_connections(), 1u);
  std::uint64_t opened = 0;
  client.run([&](StreamClient& c) { opened = c.connections_opened(); });
  EXPECT_EQ(opened, 1u);
}

TEST(StreamClient, OnDoneMayStartTheNextRequest) {
  StreamingServer server;
  ClientLoop client(server.server.base_url());
  StreamClient* raw = client.client.get();
  ChainSink chain(raw, 25);
  client.start(get_request("/v2/ping"), chain);
  ASSERT_TRUE(chain.finished.wait_for_count(1));
  EXPECT_EQ(chain.ok, 25);
  EXPECT_EQ(server.server.accepted_connections(), 1u);
}

TEST(StreamClient, ConcurrentRequestsGetTheirOwnConnections) {
  StreamingServer server(5);
  ClientLoop client(server.server.base_url());
  std::vector<RecordingSink> sinks(8);
  for (auto& sink : sinks) client.start(stream_request(), sink);
  for (auto& sink : sinks) ASSERT_TRUE(sink.done.wait_for_count(1));
  for (auto& sink : sinks) EXPECT_EQ(events_of(sink.body).size(), 6u);
  EXPECT_EQ(server.server.accepted_connections(), 8u);
  std::size_t idle = 0;
  client.run([&](StreamClient& c) { idle = c.idle_connections(); });
  EXPECT_EQ(idle, 8u);
}

TEST(StreamClient, ConnectionRefusedNamesTheAddress) {
  std::uint16_t port = 0;
  {
    Server closed;
    ASSERT_TRUE(closed.start());
    port = closed.port();
  }  // bound, then closed: nothing listens there now
  ClientLoop client("http://127.0.0.1:" + std::to_string(port));
  RecordingSink sink;
  client.start(get_request("/x"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::connect_refused);
  EXPECT_EQ(sink.order, "d");
  EXPECT_EQ(sink.outcome.message, "cannot connect to 127.0.0.1:" + std::to_string(port) + ": connection refused");
}

TEST(StreamClient, ServerClosingMidStreamIsAReset) {
  StreamingServer server;
  ClientLoop client(server.server.base_url());
  RecordingSink sink;
  client.start(get_request("/cut"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::reset) << sink.outcome.message;
  EXPECT_EQ(sink.outcome.status, 200);
  EXPECT_EQ(sink.body, "data: partial\n\n");  // what did arrive was delivered
}

TEST(StreamClient, PerRequestTimeout) {
  StreamingServer server;
  ClientLoop client(server.server.base_url());
  RecordingSink sink;
  const auto begin = std::chrono::steady_clock::now();
  client.start(get_request("/hang"), sink, 100ms);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(sink.outcome.result, StreamResult::timeout);
  EXPECT_EQ(sink.outcome.message, "no complete response within 100 ms");
  EXPECT_GE(elapsed, 100ms);
  EXPECT_LT(elapsed, 2s);
  EXPECT_TRUE(server.hung_closed.wait_for_count(1));  // the server saw the client go
}

// A server that stops answering is `stalled` after the stall limit, however long the request may take.
TEST(StreamClient, SilenceLongerThanTheStallLimitIsStalled) {
  StreamingServer server;
  ClientLoop client(server.server.base_url());
  RecordingSink sink;
  const auto begin = std::chrono::steady_clock::now();
  client.start(get_request("/hang"), sink, {}, 150ms);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(sink.outcome.result, StreamResult::stalled) << sink.outcome.message;
  EXPECT_NE(sink.outcome.message.find("for 0.15 s (stall timeout)"), std::string::npos) << sink.outcome.message;
  EXPECT_GE(elapsed, 150ms);
  EXPECT_LT(elapsed, 2s);
  EXPECT_TRUE(server.hung_closed.wait_for_count(1));  // the connection was closed
}

// A stream that keeps sending is never stalled, even when it lasts many stall limits.
TEST(StreamClient, AStreamThatKeepsSendingOutlastsTheStallLimit) {
  StreamingServer server(30, 25ms);  // 750 ms in all, one event every 25 ms
  ClientLoop client(server.server.base_url());
  RecordingSink sink;
  client.start(stream_request(), sink, {}, 250ms);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  EXPECT_EQ(events_of(sink.body).size(), 31u);
}

TEST(StreamClient, Non2xxBodyIsDeliveredAndCaptured) {
  StreamingServer server;
  ClientLoop client(server.server.base_url());
  RecordingSink sink;
  client.start(get_request("/error"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::http_status);
  EXPECT_EQ(sink.outcome.status, 429);
  EXPECT_EQ(sink.outcome.error_body, std::string(100, 'e'));
  EXPECT_EQ(sink.body, std::string(100, 'e'));
}

TEST(StreamClient, CapturedErrorBodyIsCapped) {
  StreamingServer server;
  ClientLoop client(server.server.base_url(), StreamClientOptions{.max_error_body = 10});
  RecordingSink sink;
  client.start(get_request("/error"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.error_body, std::string(10, 'e'));
  EXPECT_EQ(sink.body.size(), 100u);
}

TEST(StreamClient, PrefixIsPrependedToTargets) {
  StreamingServer server;
  ClientLoop client(server.server.base_url() + "/v2");
  RecordingSink sink;
  client.start(get_request("/ping"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok);
  EXPECT_EQ(sink.body, "pong");
}

TEST(StreamClient, CancelAllEndsEveryRequestInFlight) {
  StreamingServer server;
  ClientLoop client(server.server.base_url());
  std::vector<RecordingSink> sinks(3);
  for (auto& sink : sinks) client.start(get_request("/hang"), sink);
  ASSERT_TRUE(server.hung_opened.wait_for_count(3));
  std::size_t in_flight = 0;
  client.run([&](StreamClient& c) {
    in_flight = c.in_flight();
    c.cancel_all();
  });
  EXPECT_EQ(in_flight, 3u);
  for (auto& sink : sinks) {
    ASSERT_TRUE(sink.done.wait_for_count(1));
    EXPECT_EQ(sink.outcome.result, StreamResult::cancelled);
    EXPECT_EQ(sink.done_calls, 1);
  }
  EXPECT_TRUE(server.hung_closed.wait_for_count(3));
}

TEST(StreamClient, MalformedResponse) {
  RawServer raw("HTTP/1.1 200 OK\r\nContent-Length: zz\r\n\r\n");
  ClientLoop client(raw.base_url());
  RecordingSink sink;
  client.start(get_request("/"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::malformed);
  EXPECT_TRUE(sink.outcome.message.starts_with("malformed response")) << sink.outcome.message;
}

TEST(StreamClient, BodyDelimitedByCloseEndsAtEof) {
  RawServer raw("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end");
  ClientLoop client(raw.base_url());
  RecordingSink sink;
  client.start(get_request("/"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  EXPECT_EQ(sink.body, "until the end");
}

TEST(StreamClient, ReplacesAnIdleConnectionTheServerClosed) {
  // Promises keep-alive, then closes anyway: the pooled connection is stale.
  RawServer raw("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 2);
  ClientLoop client(raw.base_url());
  for (int i = 0; i < 2; ++i) {
    RecordingSink sink;
    client.start(get_request("/"), sink);
    ASSERT_TRUE(sink.done.wait_for_count(1));
    EXPECT_EQ(sink.outcome.result, StreamResult::ok) << i << ": " << sink.outcome.message;
  }
  EXPECT_EQ(raw.accepted(), 2);
}

TEST(StreamClient, HundredsOfConcurrentStreamsAllComplete) {
  StreamingServer server(10, 2000us);
  ClientLoop client(server.server.base_url());
  std::vector<RecordingSink> sinks(200);
  for (auto& sink : sinks) client.start(stream_request(), sink);
  for (auto& sink : sinks) {
    ASSERT_TRUE(sink.done.wait_for_count(1, 20000ms));
    ASSERT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
    ASSERT_EQ(events_of(sink.body).size(), 11u);
  }
}
