#pragma once
// An in-process SGLang-like control plane for campaign unit tests, on http::Server: /health,
// /v1/models, /server_info (with a simulator `sim` block), /metrics (counters set by the test),
// POST /flush_cache (counted), /tokenize (one id per byte), and a non-streaming
// /v1/chat/completions that plays the quality gate's counterpart in one of several modes.
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/campaign/word_problems.hpp"
#include "servebench/http/server.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign::testing {

enum class GateMode { correct, wrong_answers, varying_text, no_tool_call, wrong_tool, http_error };

class FakeEngineServer {
 public:
  explicit FakeEngineServer(GateMode mode = GateMode::correct, std::uint64_t seed = 7, std::size_t problems = 8)
      : m_mode(mode), m_server({.io_threads = 1}) {
    for (const auto& p : make_word_problems(problems, seed)) m_answers[p.text] = p.answer;
    get("/health", [this] { return http::Response{health_status.load(), R"({"status":"ok"})", "application/json"}; });
    get("/v1/models", [] {
      return http::Response{200, R"({"object":"list","data":[{"id":"fake-model","max_model_len":4096}]})", "application/json"};
    });
    get("/server_info", [] {
      return http::Response{200,
                            R"({"version":"fake-1","max_total_num_tokens":100000,"max_running_requests":16,)"
                            R"("sim":{"time_scale":0.5,"oracle":true}})",
                            "application/json"};
    });
    get("/metrics", [this] {
      std::lock_guard lock(m_mutex);
      return http::Response{200,
                            fmt::format("sglang:prompt_tokens_total {}\nsglang:cached_tokens_total {}\n"
                                        "sglang:num_running_reqs 0\nsglang:num_queue_reqs 0\n",
                                        m_prompt, m_cached),
                            "text/plain"};
    });
    m_server.route(http::Method::post, "/flush_cache", [this](const http::ServerRequest&) {
      ++flushes;
      return http::Response{200, "Cache flushed.", "text/plain"};
    });
    m_server.route(http::Method::post, "/tokenize", [](const http::ServerRequest& r) { return tokenize(r); });
    m_server.route(http::Method::post, "/v1/chat/completions", [this](const http::ServerRequest& r) { return chat(r); });
    if (auto ok = m_server.start(); !ok) throw std::runtime_error(ok.error().message);
  }

  std::string base_url() const { return m_server.base_url(); }
  // More problems it answers (before any request is sent).
  void know(const std::vector<WordProblem>& problems) {
    for (const auto& p : problems) m_answers[p.text] = p.answer;
  }
  void stop() { m_server.stop(); }
  void set_counters(double prompt_tokens, double cached_tokens) {
    std::lock_guard lock(m_mutex);
    m_prompt = prompt_tokens;
    m_cached = cached_tokens;
  }

  std::atomic<int> health_status{200};
  std::atomic<int> flushes{0};
  std::atomic<int> chats{0};

 private:
  template <class F>
  void get(const std::string& path, F f) {
    m_server.route(http::Method::get, path, [f](const http::ServerRequest&) { return f(); });
  }

  static http::Response tokenize(const http::ServerRequest& r) {
    auto body = util::parse_json(r.body, "tokenize");
    const std::string text = body ? util::json_string(body->as_object(), "prompt").value_or("") : "";
    boost::json::array ids;
    for (const unsigned char c : text) ids.push_back(1000 + c);
    return {200, util::to_json_text(boost::json::object{{"tokens", ids}, {"count", ids.size()}}), "application/json"};
  }

  static std::string reply(std::string_view content, std::string_view finish) {
    boost::json::object message{{"role", "assistant"}, {"content", content}};
    boost::json::object choice{{"index", 0}, {"message", message}, {"finish_reason", finish}};
    return util::to_json_text(boost::json::object{
        {"id", "chat-1"}, {"object", "chat.completion"}, {"choices", boost::json::array{choice}},
        {"usage", boost::json::object{{"prompt_tokens", 10}, {"completion_tokens", 6}, {"total_tokens", 16}}}});
  }

  // wrong_tool: a call of another function, under a call id that happens to read "get_weather".
  std::string tool_reply() const {
    const bool wrong = m_mode == GateMode::wrong_tool;
    return fmt::format(
        R"({{"id":"chat-2","object":"chat.completion","choices":[{{"index":0,"message":{{"role":"assistant",)"
        R"("content":null,"tool_calls":[{{"id":"{}","type":"function","function":{{"name":"{}",)"
        R"("arguments":"{{\"city\": \"Paris\"}}"}}}}]}},"finish_reason":"tool_calls"}}],)"
        R"("usage":{{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19}}}})",
        wrong ? "get_weather" : "call-1", wrong ? "get_time" : "get_weather");
  }

  http::Response chat(const http::ServerRequest& r) {
    const int n = ++chats;
    if (m_mode == GateMode::http_error) return {500, R"({"error":{"message":"boom"}})", "application/json"};
    auto body = util::parse_json(r.body, "chat");
    const auto& o = body->as_object();
    if (o.contains("tools")) return {200, m_mode == GateMode::no_tool_call ? reply("I cannot.", "stop") : tool_reply(), "application/json"};
    const std::string content = std::string(o.at("messages").as_array()[0].as_object().at("content").as_string());
    for (const auto& [text, answer] : m_answers) {
      if (content.ends_with(text)) {
        const auto given = m_mode == GateMode::wrong_answers ? answer + 1 : answer;
        return {200, reply(fmt::format("The answer is {}.", given), "stop"), "application/json"};
      }
    }
    const std::string text = m_mode == GateMode::varying_text ? fmt::format("waves {}", n) : "waves at dawn";
    return {200, reply(text, "length"), "application/json"};
  }

  GateMode m_mode;
  std::map<std::string, std::int64_t> m_answers;
  std::mutex m_mutex;
  double m_prompt = 0, m_cached = 0;
  http::Server m_server;
};

}  // namespace servebench::campaign::testing
