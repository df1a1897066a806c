// How the StreamClient reads: one read per readiness (no read that is known to return EAGAIN),
// bodies larger than the read buffer arrive whole, and every read is reported to the
// ReadObserver with the kernel's receive timestamp → parsed delay.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "loopback.hpp"
#include "servebench/http/server.hpp"
#include "servebench/http/stream_client.hpp"
#include "unit/http/http_test_messages.hpp"

using namespace servebench::http;
using namespace servebench::http::test;

namespace {

// Counts reads and keeps the largest arrival lag (loop thread only writes; read after done).
class CountingObserver final : public ReadObserver {
 public:
  void on_read_parsed(std::chrono::nanoseconds since_arrival) override {
    ++reads;
    max_lag = std::max(max_lag, since_arrival);
  }
  std::atomic<int> reads{0};
  std::chrono::nanoseconds max_lag{0};
};


TEST(StreamClientReads, ABodyMuchLargerThanTheReadBufferArrivesWhole) {
  // 1 MiB in one response: most reads fill the 16 KiB buffer, so the next read must go at once
  // (edge-triggered readiness would not announce the bytes already waiting).
  Server server;
  const std::string big(1 << 20, 'x');
  server.route(Method::get, "/big", [&](const ServerRequest&) { return Response{200, big, "text/plain"}; });
  ASSERT_TRUE(server.start());
  CountingObserver observer;
  StreamClientOptions options;
  options.read_observer = &observer;
  ClientLoop client(server.base_url(), options);
  for (int round = 0; round < 3; ++round) {  // and again on the kept-alive connection
    RecordingSink sink;
    client.start(get_request("/big"), sink);
    ASSERT_TRUE(sink.done.wait_for_count(1, 10000ms));
    EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
    EXPECT_EQ(sink.body.size(), big.size());
    EXPECT_EQ(sink.body, big);
  }
  // Not every read is observed: the kernel starts stamping arrivals a moment after the first
  // socket asks (a deferred global switch), and a read without a stamp is no sample.
  EXPECT_LE(observer.reads.load(), 3 * (1 << 20));
  server.stop();
}

TEST(StreamClientReads, EveryReadIsObservedWithItsArrivalLag) {
  // Paced events: one read per event; the arrival lag of an idle loop is far below a second.
  Server server;
  std::jthread producer;  // joins on the way out, even when an assertion fails
  server.route_stream(Method::get, "/paced", [&](const ServerRequest&, std::shared_ptr<Stream> s) {
    producer = std::jthread([s] {
      for (int i = 0; i < 20; ++i) {
        s->send("data: " + std::to_string(i) + "\n\n");
        std::this_thread::sleep_for(5ms);  // token pacing, not synchronisation
      }
      s->finish();
    });
  });
  ASSERT_TRUE(server.start());
  CountingObserver observer;
  StreamClientOptions options;
  options.read_observer = &observer;
  ClientLoop client(server.base_url(), options);
  RecordingSink sink;
  client.start(get_request("/paced"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1, 10000ms));
  producer.join();
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  // Paced events arrive in separate reads, one read each (header and end may add one); the first
  // few may carry no stamp yet (the kernel turns stamping on a moment after the first socket asks).
  EXPECT_GE(observer.reads.load(), 5);
  EXPECT_LE(observer.reads.load(), 22);
  EXPECT_GT(observer.max_lag.count(), 0);
  EXPECT_LT(observer.max_lag, 1s);
  server.stop();
}

TEST(StreamClientReads, WithoutAnObserverNothingIsStamped) {
  Server server;
  server.route(Method::get, "/ping", [](const ServerRequest&) { return Response{200, "pong", "text/plain"}; });
  ASSERT_TRUE(server.start());
  ClientLoop client(server.base_url());
  RecordingSink sink;
  client.start(get_request("/ping"), sink);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok);
  EXPECT_EQ(sink.body, "pong");
  server.stop();
}

}  // namespace
