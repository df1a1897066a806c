#include "servebench/http/blocking_client.hpp"

#include <condition_variable>
#include <mutex>

#include <fmt/format.h>

#include "servebench/http/event_loop.hpp"
#include "servebench/http/router.hpp"
#include "servebench/http/stream_client.hpp"
#include "servebench/http/url.hpp"

namespace servebench::http {
namespace {

constexpr std::size_t k_max_body = std::size_t{256} << 20;
// The request's own deadline (on the loop) fires first; this only guards against a lost wakeup.
constexpr auto k_wait_slack = std::chrono::seconds(5);

// Collects one response on the loop thread and wakes the caller waiting in send().
class CollectingSink final : public StreamSink {
 public:
  void on_sent(util::TimePoint) override {}
  void on_headers(int status, std::string_view content_type) override {
    m_response.status = status;
    m_response.content_type = std::string(content_type);
  }
  void on_body(std::string_view bytes, util::TimePoint) override {
    if (m_response.body.size() + bytes.size() > k_max_body) {
      m_too_large = true;
    } else {
      m_response.body.append(bytes);
    }
  }
  void on_done(const StreamOutcome& outcome) override {
    std::lock_guard lock(m_mutex);
    m_outcome = outcome;
    m_done = true;
    m_wake.notify_all();
  }

  // Waits for on_done; false when `within` (if non-zero) passed first.
  bool wait(std::chrono::nanoseconds within) {
    std::unique_lock lock(m_mutex);
    if (within.count() == 0) {
      m_wake.wait(lock, [&] { return m_done; });
      return true;
    }
    return m_wake.wait_for(lock, within, [&] { return m_done; });
  }
  // After wait(): what happened.
  const StreamOutcome& outcome() const { return m_outcome; }
  bool too_large() const { return m_too_large; }
  Response take_response() { return std::move(m_response); }

 private:
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_done = false;
  StreamOutcome m_outcome;
  Response m_response;
  bool m_too_large = false;
};

}  // namespace

struct BlockingClient::Impl {
  ~Impl() {
    loop.stop();  // first: the client is then destroyed off the loop thread safely
    client.reset();
  }
  EventLoop loop;
  std::unique_ptr<StreamClient> client;
  std::mutex call_mutex;  // one exchange at a time
};

util::Result<std::unique_ptr<BlockingClient>> BlockingClient::create(std::string_view base_url) {
  const auto url = parse_url(base_url);
  if (!url) return std::unexpected(url.error());
  auto impl = std::make_unique<Impl>();
  auto client = StreamClient::create(impl->loop, *url);
  if (!client) return std::unexpected(client.error());
  impl->client = std::move(*client);
  impl->loop.start();
  return std::unique_ptr<BlockingClient>(new BlockingClient(std::move(impl)));
}

BlockingClient::BlockingClient(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

BlockingClient::~BlockingClient() = default;

util::Result<Response> BlockingClient::send(const Request& request, std::chrono::milliseconds timeout) {
  std::lock_guard call_lock(m_impl->call_mutex);
  CollectingSink sink;
  StreamClient& client = *m_impl->client;
  m_impl->loop.post([&client, &sink, request = Request(request), timeout]() mutable { client.start(std::move(request), sink, timeout); });
  if (!sink.wait(timeout.count() == 0 ? std::chrono::nanoseconds{0} : timeout + k_wait_slack)) {
    m_impl->loop.post([&client] { client.cancel_all(); });
    sink.wait({});
  }
  const std::string what = fmt::format("{} {}{}", method_name(request.method), base_url(), request.target);
  const StreamOutcome& outcome = sink.outcome();
  switch (outcome.result) {
    case StreamResult::ok:
    case StreamResult::http_status:
      if (sink.too_large()) return util::failf(util::ErrorKind::failed, "{}: response body over {} bytes", what, k_max_body);
      return sink.take_response();
    case StreamResult::connect_refused:
      return util::failf(util::ErrorKind::unreachable, "{}: {}", what, outcome.message);
    default:
      return util::failf(util::ErrorKind::failed, "{}: {}", what, outcome.message);
  }
}

const std::string& BlockingClient::base_url() const { return m_impl->client->url().text; }

}  // namespace servebench::http
