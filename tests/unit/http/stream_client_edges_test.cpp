// The StreamClient's read path at its edges (one edge-triggered readiness per arrival, one read
// each): responses split across readiness events at awkward places, a server ending or resetting
// a connection mid-response or while it sits in the pool, more ready streams than one poll
// fetches, and reads that allocate nothing once warm.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "http_test_messages.hpp"
#include "loopback.hpp"
#include "servebench/http/stream_client.hpp"
#include "support/counting_new.hpp"  // this binary's allocations are counted (only this file includes it)

using namespace servebench::http;
using namespace servebench::http::test;
using servebench::util::TimePoint;

namespace {

constexpr std::string_view k_head =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
constexpr std::string_view k_end = "0\r\n\r\n";

// A sink the test thread may watch while the loop thread writes to it: counters are atomic, and
// the body (kept unless `keep` is false) is read only after done.
class WatchedSink final : public StreamSink {
 public:
  void on_sent(TimePoint) override {}
  void on_headers(int s, std::string_view) override { status = s; }
  void on_body(std::string_view bytes, TimePoint) override {
    if (keep) body.append(bytes);
    pieces.fetch_add(1);
    bytes_seen.fetch_add(bytes.size());
  }
  void on_done(const StreamOutcome& o) override {
    outcome = o;
    done.signal();
  }
  // Spins (yielding) until the loop has handed over `n` body bytes; allocates nothing.
  bool wait_bytes(std::size_t n, std::chrono::milliseconds within = 5000ms) const {
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (bytes_seen.load() < n) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }

  bool keep = true;
  std::atomic<std::size_t> bytes_seen{0};
  std::atomic<int> pieces{0};
  std::string body;
  int status = 0;
  StreamOutcome outcome;
  Latch done;
};

// One request under way on a connection the test itself answers through `fd`.
struct Driven {
  explicit Driven(std::string target, StreamClientOptions options = {}) : client(listener.base_url(), options) {
    client.start(get_request(std::move(target)), sink);
    fd = listener.accept_request();
  }
  ~Driven() {
    if (fd >= 0) raw_close(fd);
  }
  Listener listener;
  ClientLoop client;
  WatchedSink sink;
  int fd = -1;
};

TEST(StreamClientEdges, AResponseSplitAcrossReadinessEventsArrivesWhole) {
  // Split inside a chunk's data and inside a chunk-size line: each part is its own arrival, and
  // the bytes a part leaves unparsed wait in the buffer for the next edge.
  Driven d("/split");
  const int fd = d.fd;
  WatchedSink& sink = d.sink;
  ASSERT_GE(fd, 0);
  raw_send(fd, std::string(k_head) + "5\r\nhel");
  ASSERT_TRUE(sink.wait_bytes(3));
  raw_send(fd, "lo\r\n3\r\nabc\r\n1");
  ASSERT_TRUE(sink.wait_bytes(8));
  raw_send(fd, "0\r\n0123456789abcdef\r\n" + std::string(k_end));
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  EXPECT_EQ(sink.body, "helloabc0123456789abcdef");
  EXPECT_GE(sink.pieces.load(), 3);  // at least one piece per arrival
}

// A stream cut after "hello" by `cut` (an end of file or a reset), arriving on its own.
template <class Cut>
void cut_after_hello(Driven& d, Cut cut) {
  ASSERT_GE(d.fd, 0);
  raw_send(d.fd, std::string(k_head) + "5\r\nhello\r\n");
  ASSERT_TRUE(d.sink.wait_bytes(5));
  cut(d.fd);
  ASSERT_TRUE(d.sink.done.wait_for_count(1));
}

TEST(StreamClientEdges, EndOfFileMidResponseIsAResetWithWhatArrived) {
  Driven d("/cut");
  cut_after_hello(d, [](int fd) { ::shutdown(fd, SHUT_WR); });
  const WatchedSink& sink = d.sink;
  EXPECT_EQ(sink.outcome.result, StreamResult::reset);
  EXPECT_NE(sink.outcome.message.find("closed the connection before the response was complete"), std::string::npos)
      << sink.outcome.message;
  EXPECT_EQ(sink.body, "hello");
}

TEST(StreamClientEdges, AResetMidResponseIsAReset) {
  Driven d("/reset");
  cut_after_hello(d, [&](int fd) {
    raw_reset(fd);
    d.fd = -1;
  });
  const WatchedSink& sink = d.sink;
  EXPECT_EQ(sink.outcome.result, StreamResult::reset) << sink.outcome.message;
  EXPECT_EQ(sink.outcome.reconnects, 0);  // bytes had arrived: never retried
  EXPECT_EQ(sink.body, "hello");
}

TEST(StreamClientEdges, BytesAndTheEndOfFileInOneArrivalAreBothRead) {
  // The last bytes and the server's close come in one readiness (a short read, then the hang-up
  // flag says the end of file is still to be read): a body delimited by the close ends well.
  Driven d("/close-delimited");
  auto& sink = d.sink;
  ASSERT_GE(d.fd, 0);
  raw_send(d.fd, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end");
  raw_close(std::exchange(d.fd, -1));
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  EXPECT_EQ(sink.body, "until the end");
}

// The server closes (or resets) a kept-alive connection while it sits idle in the pool: the
// client hears the edge while no request runs, ignores it, and finds the close before reuse.
class IdleClose : public ::testing::TestWithParam<bool> {};

TEST_P(IdleClose, TheNextRequestGoesOnAFreshConnection) {
  const bool reset = GetParam();
  Listener listener;
  ClientLoop client(listener.base_url());
  // Sends a request, answers it on the connection it arrives on (a new one each time: the listener
  // sees no second request on the first), and returns that connection.
  const auto exchange = [&](WatchedSink& sink) {
    static constexpr std::string_view k_ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    client.start(get_request("/"), sink);
    const int fd = listener.accept_request();
    if (fd >= 0) raw_send(fd, k_ok);
    EXPECT_TRUE(sink.done.wait_for_count(1));
    return fd;
  };
  WatchedSink first, second;
  const int fd = exchange(first);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(first.outcome.result, StreamResult::ok) << first.outcome.message;  // pooled before on_done
  reset ? raw_reset(fd) : raw_close(fd);
  const int fresh = exchange(second);
  ASSERT_GE(fresh, 0);
  raw_close(fresh);
  EXPECT_EQ(second.outcome.result, StreamResult::ok) << second.outcome.message;
  EXPECT_EQ(second.body, "ok");
}

INSTANTIATE_TEST_SUITE_P(StreamClientEdges, IdleClose, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Reset" : "EndOfFile"; });

TEST(StreamClientEdges, MoreReadyStreamsThanOnePollFetchesAllComplete) {
  // 300 streams become readable while the loop is held busy, so its next poll finds more ready
  // sockets than one fetch returns (256): the rest must be fetched too, or, edge-triggered, they
  // would never be announced again.
  constexpr int k_streams = 300;
  constexpr int k_rounds = 3;
  Listener listener;
  ClientLoop client(listener.base_url());
  std::vector<WatchedSink> sinks(k_streams);
  for (auto& sink : sinks) client.start(get_request("/many"), sink);
  std::vector<int> fds;
  for (int i = 0; i < k_streams; ++i) {
    fds.push_back(listener.accept_request());
    ASSERT_GE(fds.back(), 0) << i;
  }
  for (int round = 0; round <= k_rounds; ++round) {
    std::mutex m;
    std::condition_variable cv;
    bool held = false, release = false;
    client.loop.post([&] {  // holds the loop until every socket has its bytes
      std::unique_lock lock(m);
      held = true;
      cv.notify_one();
      cv.wait_for(lock, 10s, [&] { return release; });
    });
    {
      std::unique_lock lock(m);
      ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return held; }));
    }
    for (const int fd : fds) raw_send(fd, round == 0 ? std::string(k_head) + "2\r\nab\r\n" : std::string("2\r\nab\r\n"));
    {
      std::lock_guard lock(m);
      release = true;
    }
    cv.notify_one();
    for (auto& sink : sinks) ASSERT_TRUE(sink.wait_bytes(2 * static_cast<std::size_t>(round + 1)));
  }
  for (const int fd : fds) raw_send(fd, k_end);
  for (auto& sink : sinks) {
    ASSERT_TRUE(sink.done.wait_for_count(1, 10000ms));
    EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
    EXPECT_EQ(sink.body.size(), 2u * (k_rounds + 1));
  }
  for (const int fd : fds) raw_close(fd);
}

// Counts reads, allocating nothing.
class ReadCounter final : public ReadObserver {
 public:
  void on_read_parsed(std::chrono::nanoseconds) override { reads.fetch_add(1); }
  std::atomic<int> reads{0};
};

TEST(StreamClientEdges, SteadyStateReadsAllocateNothing) {
  // One chunk per read, as tokens arrive from a GPU: once the connection's buffers are warm, a
  // readiness, its read (with the kernel's receive timestamp), the parse and the sink's callback
  // allocate nothing — on any thread of this process.
  ReadCounter observer;
  StreamClientOptions options;
  options.read_observer = &observer;
  Driven d("/tokens", options);
  const int fd = d.fd;
  WatchedSink& sink = d.sink;
  sink.keep = false;  // before any body byte: none is sent yet
  ASSERT_GE(fd, 0);
  const std::string chunk = "16\r\ndata: {\"text\":\"tok\"}\n\n\r\n";  // 22 bytes of data
  raw_send(fd, k_head);
  std::size_t expected = 0;
  for (int i = 0; i < 100; ++i) {  // warm-up
    raw_send(fd, chunk);
    expected += 22;
    ASSERT_TRUE(sink.wait_bytes(expected));
  }
  bool arrived = true;
  const long before = servebench::testing::allocations();
  for (int i = 0; i < 1000 && arrived; ++i) {
    raw_send(fd, chunk);
    expected += 22;
    arrived = sink.wait_bytes(expected);
  }
  const long after = servebench::testing::allocations();
  ASSERT_TRUE(arrived);
  EXPECT_EQ(after - before, 0);
  raw_send(fd, k_end);
  ASSERT_TRUE(sink.done.wait_for_count(1));
  EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
  EXPECT_GE(sink.pieces.load(), 1000);  // one read per chunk, mostly: the writes were paced
}

}  // namespace
