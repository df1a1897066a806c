#pragma once
// A small OpenAI-style streaming server for load tests, built on http::Server. The request's
// "model" picks a behaviour, so one server covers every failure kind:
//   "ok"        max_tokens chunks (text completions), a finish chunk with usage, [DONE]
//   "http500"   a 500 JSON error
//   "reset"     two chunks, then the connection drops
//   "malformed" one chunk that is not JSON, then [DONE]
//   "silent"    never answers (the client's timeout ends it)
//   "mixed"     the first prompt id picks: 1 http500, 2 reset, 3 malformed, 4 silent, else ok
// GET /health answers 200 and GET /v1/models lists "ok", so the real CLI can drive it.
// Chunks are paced `gap` apart on a producer thread per request; gap zero sends them at once.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/http/server.hpp"
#include "servebench/http/sse_encoder.hpp"

namespace servebench::load::testing {

class FakeServer {
 public:
  explicit FakeServer(std::chrono::microseconds gap = {}) : m_gap(gap), m_server({.io_threads = 2}) {
    m_server.route_stream(http::Method::post, "/v1/completions",
                          [this](const http::ServerRequest& req, std::shared_ptr<http::Stream> s) { serve(req, s); });
    m_server.route(http::Method::get, "/health", [](const http::ServerRequest&) {
      return http::Response{200, R"({"status":"ok"})", "application/json"};
    });
    m_server.route(http::Method::get, "/v1/models", [](const http::ServerRequest&) {
      return http::Response{200, R"({"object":"list","data":[{"id":"ok","object":"model"}]})", "application/json"};
    });
    auto ok = m_server.start();
    if (!ok) throw std::runtime_error(ok.error().message);
  }
  ~FakeServer() {
    m_server.stop();
    std::lock_guard lock(m_mutex);
    for (auto& t : m_producers) t.join();
  }
  std::string base_url() const { return m_server.base_url(); }
  int max_in_flight() const { return m_max_in_flight.load(); }
  int requests() const { return m_requests.load(); }

 private:
  void serve(const http::ServerRequest& req, std::shared_ptr<http::Stream> stream) {
    const auto body = boost::json::parse(req.body).as_object();
    std::string model(body.at("model").as_string());
    const std::int64_t max_tokens = body.at("max_tokens").as_int64();
    const auto& ids = body.at("prompt").as_array();
    const auto prompt = ids.size();
    if (model == "mixed") {
      static const char* const k_by_first_id[] = {"ok", "http500", "reset", "malformed", "silent"};
      const std::int64_t first = ids.empty() ? 0 : ids[0].as_int64();
      model = first >= 1 && first <= 4 ? k_by_first_id[first] : "ok";
    }
    ++m_requests;
    if (model == "http500") {
      stream->respond({500, R"({"error":{"message":"boom","code":500}})", "application/json"});
      return;
    }
    if (model == "silent") {
      std::lock_guard lock(m_mutex);
      m_silent.push_back(std::move(stream));
      return;
    }
    const int now = ++m_in_flight;
    for (int seen = m_max_in_flight.load(); now > seen && !m_max_in_flight.compare_exchange_weak(seen, now);) {
    }
    std::lock_guard lock(m_mutex);
    m_producers.emplace_back([this, stream, model, max_tokens, prompt] { produce(*stream, model, max_tokens, prompt); });
  }

  void produce(http::Stream& s, const std::string& model, std::int64_t max_tokens, std::size_t prompt) {
    std::string out;
    const std::int64_t n = model == "reset" ? 2 : max_tokens;
    for (std::int64_t i = 0; i < n; ++i) {
      if (m_gap.count() > 0) std::this_thread::sleep_for(m_gap);  // pacing, like a decode step
      out.clear();
      http::append_sse_data(out, model == "malformed" ? std::string("{not json")
                                                      : R"({"choices":[{"text":"x","index":0,"finish_reason":null}]})");
      s.send(out);
    }
    --m_in_flight;
    if (model == "reset") return;  // dropping the last handle without finish() resets the connection
    out.clear();
    http::append_sse_data(out, fmt::format(R"({{"choices":[{{"text":"","index":0,"finish_reason":"length"}}],)"
                                           R"("usage":{{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{}}}}})",
                                           prompt, n, prompt + static_cast<std::size_t>(n)));
    http::append_sse_done(out);
    s.send(out);
    s.finish();
  }

  std::chrono::microseconds m_gap;
  http::Server m_server;
  std::mutex m_mutex;
  std::vector<std::thread> m_producers;
  std::vector<std::shared_ptr<http::Stream>> m_silent;
  std::atomic<int> m_in_flight{0}, m_max_in_flight{0}, m_requests{0};
};

}  // namespace servebench::load::testing
