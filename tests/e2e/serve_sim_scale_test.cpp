// 2,000 concurrent streams against a serve-sim process, through the project's streaming client:
// every one completes with exactly its max_tokens.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <condition_variable>
#include <mutex>

#include "e2e/serve_sim_http.hpp"
#include "servebench/http/event_loop.hpp"
#include "servebench/http/stream_client.hpp"

namespace servebench::e2e {
namespace {

constexpr int k_streams = 2000;
constexpr int k_max_tokens = 24;

class Countdown {
 public:
  explicit Countdown(int n) : m_left(n) {}
  void arrive() {
    std::lock_guard lock(m_mutex);
    if (--m_left == 0) m_cv.notify_all();
  }
  bool wait(std::chrono::seconds within) {
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, within, [&] { return m_left <= 0; });
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  int m_left;
};

// Decodes one stream's SSE and keeps what the test checks.
class StreamRecord final : public http::StreamSink {
 public:
  explicit StreamRecord(Countdown& done) : m_done(&done) {}
  void on_sent(util::TimePoint) override {}
  void on_headers(int status, std::string_view) override { this->status = status; }
  void on_body(std::string_view bytes, util::TimePoint) override {
    decoder.feed(bytes, [&](const http::SseEvent& e) {
      if (e.data == "[DONE]") {
        saw_done = true;
      } else if (e.data.find("\"choices\":[]") != std::string_view::npos) {
        completion_tokens = boost::json::parse(e.data).at("usage").at("completion_tokens").as_int64();
      } else {
        ++token_chunks;
      }
    });
  }
  void on_done(const http::StreamOutcome& o) override {
    outcome = o;
    m_done->arrive();
  }

  int status = 0, token_chunks = 0;
  std::int64_t completion_tokens = -1;
  bool saw_done = false;
  http::StreamOutcome outcome;
  http::SseDecoder decoder;

 private:
  Countdown* m_done;
};

bool ensure_fd_limit(rlim_t needed) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur >= needed) return true;
  limit.rlim_cur = std::min(needed, limit.rlim_max);
  return setrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur >= needed;
}

}  // namespace

TEST(ServeSimScale, TwoThousandConcurrentStreamsAllComplete) {
  ASSERT_TRUE(ensure_fd_limit(k_streams + 256)) << "raise the open-file limit (ulimit -n)";
  Sim sim({"--sim-io-threads", "2"}, "serve_sim_scale");
  ASSERT_TRUE(sim.up());
  http::EventLoop loop;
  auto client = http::StreamClient::create(loop, http::parse_url(sim.url).value()).value();
  loop.start();
  Countdown done(k_streams);
  std::vector<std::unique_ptr<StreamRecord>> results;
  for (int i = 0; i < k_streams; ++i) results.push_back(std::make_unique<StreamRecord>(done));
  const auto began = std::chrono::steady_clock::now();
  loop.post([&] {
    for (int i = 0; i < k_streams; ++i) {
      // A distinct first token per stream: no prompt shares a prefix with another.
      const std::string body = R"({"prompt":[)" + std::to_string(1000 + i) + R"(,11,12,13,14,15,16,17],"max_tokens":)" +
                               std::to_string(k_max_tokens) +
                               R"(,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}})";
      client->start({http::Method::post, "/v1/completions", body, "application/json", {}},
                    *results[static_cast<std::size_t>(i)], std::chrono::seconds(120));
    }
  });
  ASSERT_TRUE(done.wait(std::chrono::seconds(180)));
  const auto took = std::chrono::steady_clock::now() - began;
  int complete = 0;
  for (const auto& r : results) {
    EXPECT_EQ(r->outcome.result, http::StreamResult::ok) << r->outcome.message;
    if (r->status == 200 && r->saw_done && r->completion_tokens == k_max_tokens && r->token_chunks == k_max_tokens) {
      ++complete;
    }
  }
  EXPECT_EQ(complete, k_streams);
  EXPECT_EQ(sim.metric("sglang:num_requests_total"), k_streams);
  loop.post([&] { client->cancel_all(); });
  loop.stop();
  client.reset();
  std::printf("2000 streams x %d tokens: %.2f s\n", k_max_tokens, std::chrono::duration<double>(took).count());
}

}  // namespace servebench::e2e
