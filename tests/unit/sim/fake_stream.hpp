#pragma once
// An http::Stream that records what a producer did, for the front's tests without sockets.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "servebench/http/handler.hpp"
#include "servebench/http/sse_decoder.hpp"

namespace servebench::sim::test {

class FakeStream final : public http::Stream {
 public:
  void send(std::string_view chunk) override {
    {
      std::lock_guard lock(m_mutex);
      if (m_closed) return;
      m_sent += chunk;
      ++m_sends;
    }
    m_cv.notify_all();
  }
  void finish() override { end(); }
  void finish_with(std::string_view chunk) override {
    {
      std::lock_guard lock(m_mutex);
      if (m_closed) return;
      m_sent += chunk;
      m_sends += chunk.empty() ? 0 : 1;
      m_ended_with_bytes = !chunk.empty();
    }
    end();
  }
  void respond(http::Response response) override {
    {
      std::lock_guard lock(m_mutex);
      if (m_closed || m_sends > 0) return;
      m_response = std::move(response);
    }
    end();
  }
  void on_close(std::function<void()> fn) override {
    std::unique_lock lock(m_mutex);
    if (!m_closed) {
      m_on_close = std::move(fn);
      return;
    }
    lock.unlock();
    fn();
  }
  bool closed() const noexcept override {
    std::lock_guard lock(m_mutex);
    return m_closed;
  }

  // The client goes away.
  void disconnect() { end(); }
  // Waits until the exchange ended; false after `within`.
  bool wait_closed(std::chrono::milliseconds within = std::chrono::seconds(10)) {
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, within, [&] { return m_closed; });
  }
  // Waits until at least `n` sends happened; false after `within`.
  bool wait_sends(int n, std::chrono::milliseconds within = std::chrono::seconds(10)) {
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, within, [&] { return m_sends >= n || m_closed; }) && m_sends >= n;
  }
  // Writes with bytes (send, or finish_with a chunk): what would be socket writes.
  int sends() const {
    std::lock_guard lock(m_mutex);
    return m_sends;
  }
  // The end came with the last bytes, in one write.
  bool ended_with_bytes() const {
    std::lock_guard lock(m_mutex);
    return m_ended_with_bytes;
  }
  std::string sent() const {
    std::lock_guard lock(m_mutex);
    return m_sent;
  }
  std::optional<http::Response> response() const {
    std::lock_guard lock(m_mutex);
    return m_response;
  }
  // The data of every SSE event sent so far.
  std::vector<std::string> events() const {
    std::vector<std::string> out;
    http::SseDecoder decoder;
    decoder.feed(sent(), [&](const http::SseEvent& e) { out.emplace_back(e.data); });
    return out;
  }

 private:
  void end() {
    std::function<void()> fn;
    {
      std::lock_guard lock(m_mutex);
      if (m_closed) return;
      m_closed = true;
      fn = std::move(m_on_close);
    }
    m_cv.notify_all();
    if (fn) fn();
  }

  mutable std::mutex m_mutex;
  std::condition_variable m_cv;
  std::string m_sent;
  int m_sends = 0;
  bool m_ended_with_bytes = false;
  std::optional<http::Response> m_response;
  bool m_closed = false;
  std::function<void()> m_on_close;
};

}  // namespace servebench::sim::test
