// Scale: 2,000 concurrent streaming exchanges on loopback — the simulator's front under a large
// benchmark. A producer thread plays the engine: one event per open stream per decode step.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <mutex>
#include <thread>

#include "loopback.hpp"
#include "servebench/http/server.hpp"
#include "servebench/http/sse_decoder.hpp"
#include "servebench/http/sse_encoder.hpp"

using namespace servebench::http;
using namespace servebench::http::test;

namespace {

constexpr int k_streams = 2000;
constexpr int k_events = 16;
constexpr auto k_step = std::chrono::milliseconds(2);
constexpr auto k_deadline = std::chrono::seconds(60);

// Each stream needs a client and a server socket in this one process.
bool ensure_fd_limit(rlim_t needed) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur >= needed) return true;
  limit.rlim_cur = std::min(needed, limit.rlim_max);
  return setrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur >= needed;
}

class Engine {
 public:
  void admit(std::shared_ptr<Stream> stream) {
    std::lock_guard lock(m_mutex);
    m_incoming.push_back(Open{std::move(stream), 0});
  }
  void run(const std::atomic<bool>& stop) {
    const auto deadline = std::chrono::steady_clock::now() + k_deadline;
    std::vector<Open> open;
    std::string frame;
    while (!stop && std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(m_mutex);
        for (auto& o : m_incoming) open.push_back(std::move(o));
        m_incoming.clear();
      }
      for (auto& o : open) step(o, frame);
      std::erase_if(open, [](const Open& o) { return o.stream == nullptr; });
      std::this_thread::sleep_for(k_step);  // one decode step
    }
  }

 private:
  struct Open {
    std::shared_ptr<Stream> stream;
    int sent;
  };
  static void step(Open& o, std::string& frame) {
    frame.clear();
    append_sse_data(frame, R"({"id":"cmpl","object":"text_completion","choices":[{"index":0,"text":")" +
                               std::to_string(o.sent) + R"("}]})");
    if (++o.sent == k_events) append_sse_done(frame);
    o.stream->send(frame);
    if (o.sent == k_events) {
      o.stream->finish();
      o.stream.reset();
    }
  }
  std::mutex m_mutex;
  std::vector<Open> m_incoming;
};

}  // namespace

TEST(ServerScale, TwoThousandConcurrentStreamsAllComplete) {
  ASSERT_TRUE(ensure_fd_limit(2 * k_streams + 200)) << "raise the open-file limit (ulimit -n)";
  Engine engine;  // outlives the server, whose handler feeds it
  Server server(ServerOptions{.io_threads = 2});
  server.route_stream(Method::post, "/v1/completions",
                      [&](const ServerRequest&, std::shared_ptr<Stream> stream) { engine.admit(std::move(stream)); });
  ASSERT_TRUE(server.start());
  std::atomic<bool> stop{false};
  std::thread producer([&] { engine.run(stop); });

  ClientLoop client(server.base_url());
  std::vector<RecordingSink> sinks(k_streams);
  const Request request{Method::post, "/v1/completions", R"({"stream":true})", "application/json", {}};
  for (auto& sink : sinks) client.start(request, sink, std::chrono::seconds(50));
  int ok = 0;
  for (auto& sink : sinks) {
    ASSERT_TRUE(sink.done.wait_for_count(1, std::chrono::milliseconds(k_deadline)));
    EXPECT_EQ(sink.outcome.result, StreamResult::ok) << sink.outcome.message;
    int events = 0;
    SseDecoder decoder;
    decoder.feed(sink.body, [&](const SseEvent&) { ++events; });
    if (sink.outcome.result == StreamResult::ok && events == k_events + 1) ++ok;
  }
  stop = true;
  producer.join();
  EXPECT_EQ(ok, k_streams);
  EXPECT_EQ(server.accepted_connections(), static_cast<std::uint64_t>(k_streams));
}
