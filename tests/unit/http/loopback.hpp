#pragma once
// Test support for the http module's socket tests (loopback only, port 0, waits with deadlines).
#include <chrono>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "servebench/http/event_loop.hpp"
#include "servebench/http/stream_client.hpp"

namespace servebench::http::test {

using namespace std::chrono_literals;

// Waits until `done()` is true (polled under a condition variable by the caller's notifier) or
// `within` passes; returns done().
class Latch {
 public:
  void signal() {
    std::lock_guard lock(m_mutex);
    ++m_count;
    m_cv.notify_all();
  }
  bool wait_for_count(int count, std::chrono::milliseconds within = 5000ms) {
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, within, [&] { return m_count >= count; });
  }
  int count() {
    std::lock_guard lock(m_mutex);
    return m_count;
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  int m_count = 0;
};

// Polls `predicate` every millisecond until true or `within` passed (for state owned by
// another component that offers no notification, e.g. a connection count).
bool eventually(const std::function<bool()>& predicate, std::chrono::milliseconds within = 5000ms);

// Records what a StreamClient reports, for assertions on the test thread after done.wait.
class RecordingSink final : public StreamSink {
 public:
  void on_sent(util::TimePoint at) override {
    sent_at = at;
    order.push_back('s');
  }
  void on_headers(int s, std::string_view type) override {
    order.push_back('h');
    status = s;
    content_type = std::string(type);
  }
  void on_body(std::string_view bytes, util::TimePoint at) override {
    if (order.empty() || order.back() != 'b') order.push_back('b');
    body.append(bytes);
    pieces.emplace_back(bytes);
    read_times.push_back(at);
  }
  void on_done(const StreamOutcome& o) override {
    order.push_back('d');
    outcome = o;
    ++done_calls;
    done.signal();
  }

  std::string order;  // one letter per kind of callback, in arrival order: "shbd"
  util::TimePoint sent_at{};
  int status = 0;
  std::string content_type;
  std::string body;
  std::vector<std::string> pieces;
  std::vector<util::TimePoint> read_times;
  StreamOutcome outcome;
  int done_calls = 0;
  Latch done;
};

// An EventLoop running a StreamClient for `base_url`; run() executes on the loop and waits.
class ClientLoop {
 public:
  explicit ClientLoop(const std::string& base_url, StreamClientOptions options = {});
  ~ClientLoop();
  void run(std::function<void(StreamClient&)> fn);
  // start() on the loop thread (returns at once; wait on the sink).
  void start(Request request, StreamSink& sink, std::chrono::nanoseconds timeout = {},
             std::chrono::nanoseconds stall = {});
  EventLoop loop;
  std::unique_ptr<StreamClient> client;
};

// A listening socket on 127.0.0.1:<ephemeral> whose thread answers each of `connections`
// accepted connections by reading one request head and writing `reply` verbatim, then closing
// (or not, when keep_open). For responses our own server would never send.
class RawServer {
 public:
  RawServer(std::string reply, int connections = 1, bool keep_open = false);
  ~RawServer();
  std::uint16_t port() const { return m_port; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
  int accepted() const { return m_accepted.load(); }

 private:
  int m_listen_fd = -1;
  std::uint16_t m_port = 0;
  std::atomic<int> m_accepted{0};
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
  std::vector<int> m_open_fds;
};

// A listening socket on 127.0.0.1:<ephemeral> whose connections the test accepts and drives
// itself (writes, half-closes, resets), for responses split or cut exactly where a test wants.
class Listener {
 public:
  Listener();
  ~Listener();
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
  // The next connection with its request head read (and a 3 s receive timeout); -1 when none
  // came within `within`. The caller closes it.
  int accept_request(std::chrono::milliseconds within = 5000ms);

 private:
  int m_fd = -1;
  std::uint16_t m_port = 0;
};

// Closes `fd` with a reset (SO_LINGER 0) instead of an orderly end of file.
void raw_reset(int fd);

// Sends `bytes` on a fresh connection to 127.0.0.1:port and returns everything read until the
// server closes (or `within` passes). For malformed-request tests.
std::string raw_exchange(std::uint16_t port, const std::string& bytes, std::chrono::milliseconds within = 3000ms);

// A connected client socket to 127.0.0.1:port (blocking, with a receive timeout); -1 on failure.
int raw_connect(std::uint16_t port, std::chrono::milliseconds receive_timeout = 3000ms);
// Writes all of `bytes` to `fd`.
void raw_send(int fd, std::string_view bytes);
// Closes `fd`.
void raw_close(int fd);
// Reads from `fd` until `needle` appears in what was read, EOF, or a timeout; returns the bytes.
std::string raw_read_until(int fd, std::string_view needle);

}  // namespace servebench::http::test
