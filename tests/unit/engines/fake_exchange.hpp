#pragma once
// A scripted http::Exchange for adapter tests: serves recorded (tests/fixtures/llamacpp) or
// hand-written (tests/fixtures/engines) responses by method and target, and records every call.
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "servebench/engines/adapter.hpp"
#include "servebench/http/exchange.hpp"
#include "support/fixture.hpp"

namespace servebench::engines::testing {

class FakeExchange final : public http::Exchange {
 public:
  // Queues a response for "METHOD target"; the last queued response repeats. A target without
  // '?' also matches requests that carry a query string.
  void on(http::Method m, const std::string& target, int status, std::string body) {
    m_routes[key(m, target)].push_back(http::Response{status, std::move(body), "application/json"});
  }
  void on_fixture(http::Method m, const std::string& target, const std::string& fixture, int status = 200) {
    on(m, target, status, servebench::testing::read_fixture(fixture));
  }
  void set_unreachable() { m_unreachable = true; }

  util::Result<http::Response> send(const http::Request& request, std::chrono::milliseconds) override {
    calls.push_back(key(request.method, request.target));
    bodies.push_back(request.body);
    if (m_unreachable) {
      return util::failf(util::ErrorKind::unreachable, "cannot connect to {}: connection refused", m_url);
    }
    auto it = m_routes.find(key(request.method, request.target));
    if (it == m_routes.end()) it = m_routes.find(key(request.method, request.target.substr(0, request.target.find('?'))));
    if (it == m_routes.end()) return http::Response{404, "{\"detail\":\"Not Found\"}", "application/json"};
    http::Response r = it->second.front();
    if (it->second.size() > 1) it->second.pop_front();
    return r;
  }
  const std::string& base_url() const override { return m_url; }

  std::vector<std::string> calls;   // "POST /flush_cache?timeout=10"
  std::vector<std::string> bodies;  // request bodies, same order

 private:
  static std::string key(http::Method m, const std::string& target) {
    return (m == http::Method::get ? "GET " : "POST ") + target;
  }
  std::map<std::string, std::deque<http::Response>> m_routes;
  std::string m_url = "http://127.0.0.1:30000";
  bool m_unreachable = false;
};

// Advances a manual clock instead of sleeping, so retry loops run instantly and deterministically.
class ManualPacer final : public Pacer {
 public:
  explicit ManualPacer(util::ManualClock& clock) : m_clock(clock) {}
  void pause(util::Nanos d) override {
    ++pauses;
    m_clock.advance(d);
  }
  int pauses = 0;

 private:
  util::ManualClock& m_clock;
};

}  // namespace servebench::engines::testing
