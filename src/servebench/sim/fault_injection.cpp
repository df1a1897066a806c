#include "servebench/sim/fault_injection.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <variant>

#include "servebench/sim/route_errors.hpp"
#include "servebench/sim/seeded_rng.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::sim {

using SteadyTime = std::chrono::steady_clock::time_point;

std::string_view to_string(FaultKind k) {
  switch (k) {
    case FaultKind::none: return "none";
    case FaultKind::http_5xx: return "http-5xx";
    case FaultKind::disconnect_mid_stream: return "disconnect-mid-stream";
    case FaultKind::stall: return "stall";
    case FaultKind::malformed_chunk: return "malformed-chunk";
    case FaultKind::crash: return "crash-after";
  }
  return "none";
}

bool FaultPlan::empty() const {
  return http_5xx_rate == 0 && disconnect_rate == 0 && malformed_rate == 0 && stall_rate == 0 && !crash_after &&
         slow_headers_ms == 0;  // slow_steps_ms is the engine loop's, not the routes'
}

namespace {

util::Result<double> number_in(std::string_view text, double lo, double hi, std::string_view what,
                               std::string_view value) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v) || v < lo || v > hi) {
    return util::failf(util::ErrorKind::bad_input, "--sim-fault {}: {} must be a number in [{}, {}]", value, what,
                       lo, hi);
  }
  return v;
}

util::Result<void> parse_one(std::string_view value, FaultPlan& plan, std::vector<std::string>& seen) {
  const auto parts = util::split(value, ':');
  const std::string kind(parts.front());
  for (const auto& s : seen) {
    if (s == kind) return util::failf(util::ErrorKind::bad_input, "--sim-fault {}: {} given twice", value, kind);
  }
  seen.push_back(kind);
  const auto want = [&](std::size_t n, std::string_view form) -> util::Result<void> {
    if (parts.size() == n + 1) return {};
    return util::failf(util::ErrorKind::bad_input, "--sim-fault {}: expected {}", value, form);
  };
  const auto rate = [&](double& out, std::string_view form) -> util::Result<void> {
    if (auto ok = want(1, form); !ok) return ok;
    auto r = number_in(parts[1], 0, 1, "the rate", value);
    if (!r) return std::unexpected(r.error());
    out = *r;
    return {};
  };
  if (kind == "http-5xx") return rate(plan.http_5xx_rate, "http-5xx:RATE");
  if (kind == "disconnect-mid-stream") return rate(plan.disconnect_rate, "disconnect-mid-stream:RATE");
  if (kind == "malformed-chunk") return rate(plan.malformed_rate, "malformed-chunk:RATE");
  if (kind == "stall") {
    if (auto ok = want(2, "stall:RATE:SECONDS"); !ok) return ok;
    auto r = number_in(parts[1], 0, 1, "the rate", value);
    if (!r) return std::unexpected(r.error());
    auto s = number_in(parts[2], 0, 3600, "the stall in seconds", value);
    if (!s) return std::unexpected(s.error());
    plan.stall_rate = *r;
    plan.stall_seconds = *s;
    return {};
  }
  if (kind == "slow-headers") {
    if (auto ok = want(1, "slow-headers:MS"); !ok) return ok;
    auto ms = number_in(parts[1], 0, 600000, "the delay in ms", value);
    if (!ms) return std::unexpected(ms.error());
    plan.slow_headers_ms = *ms;
    return {};
  }
  if (kind == "slow-steps") {
    if (auto ok = want(1, "slow-steps:MS"); !ok) return ok;
    auto ms = number_in(parts[1], 0, 60000, "the delay in ms", value);
    if (!ms) return std::unexpected(ms.error());
    plan.slow_steps_ms = *ms;
    return {};
  }
  if (kind == "crash-after") {
    if (auto ok = want(1, "crash-after:N"); !ok) return ok;
    std::string_view n = parts[1];
    if (n.ends_with("-requests")) n.remove_suffix(9);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (ec != std::errc{} || end != n.data() + n.size() || n.empty()) {
      return util::failf(util::ErrorKind::bad_input, "--sim-fault {}: N must be a whole number of requests", value);
    }
    plan.crash_after = v;
    return {};
  }
  return util::failf(util::ErrorKind::bad_input,
                     "--sim-fault {}: unknown kind '{}' (http-5xx, disconnect-mid-stream, stall, malformed-chunk, "
                     "crash-after, slow-headers, slow-steps)",
                     value, kind);
}

}  // namespace

util::Result<FaultPlan> parse_fault_plan(const std::vector<std::string>& values, std::uint64_t seed) {
  FaultPlan plan;
  plan.seed = seed;
  std::vector<std::string> seen;
  for (const auto& v : values) {
    if (auto ok = parse_one(v, plan, seen); !ok) return std::unexpected(ok.error());
  }
  return plan;
}

FaultKind fault_for(const FaultPlan& plan, std::uint64_t n) {
  if (plan.crash_after && n >= *plan.crash_after) return FaultKind::crash;
  const auto hit = [&](FaultKind k, double rate) {
    return rate > 0 && unit_interval(mix64(plan.seed, mix64(n, static_cast<std::uint64_t>(k)))) < rate;
  };
  if (hit(FaultKind::http_5xx, plan.http_5xx_rate)) return FaultKind::http_5xx;
  if (hit(FaultKind::disconnect_mid_stream, plan.disconnect_rate)) return FaultKind::disconnect_mid_stream;
  if (hit(FaultKind::malformed_chunk, plan.malformed_rate)) return FaultKind::malformed_chunk;
  if (hit(FaultKind::stall, plan.stall_rate)) return FaultKind::stall;
  return FaultKind::none;
}

std::uint64_t fault_count(const FaultPlan& plan, FaultKind kind, std::uint64_t requests) {
  std::uint64_t count = 0;
  for (std::uint64_t n = 0; n < requests; ++n) count += fault_for(plan, n) == kind ? 1 : 0;
  return count;
}

// Runs tasks at their due time on one thread; stop() drops the tasks not run yet.
struct FaultInjector::Timer {
  std::mutex mutex;
  std::condition_variable cv;
  std::multimap<SteadyTime, std::function<void()>> tasks;
  bool stopping = false;
  std::thread thread;

  Timer() : thread([this] { run(); }) {}
  void run() {
    std::unique_lock lock(mutex);
    while (!stopping) {
      if (tasks.empty()) {
        cv.wait(lock);
        continue;
      }
      auto it = tasks.begin();
      if (std::chrono::steady_clock::now() < it->first) {
        cv.wait_until(lock, it->first);
        continue;
      }
      auto fn = std::move(it->second);
      tasks.erase(it);
      lock.unlock();
      fn();
      fn = nullptr;  // a released stream may be the last handle: close it outside the lock
      lock.lock();
    }
  }
  void schedule(SteadyTime at, std::function<void()> fn) {
    {
      const std::lock_guard lock(mutex);
      if (stopping) return;
      tasks.emplace(at, std::move(fn));
    }
    cv.notify_one();
  }
  void stop() {
    decltype(tasks) dropped;
    {
      const std::lock_guard lock(mutex);
      stopping = true;
      dropped.swap(tasks);
    }
    cv.notify_one();
    if (thread.joinable() && thread.get_id() != std::this_thread::get_id()) thread.join();
  }
};

namespace {

constexpr std::string_view k_malformed_event = "data: {\"choices\":[{\"text\": fault-injected\n\n";

// A Stream in front of the connection's: corrupts, holds or drops what the generation sends.
class FaultStream final : public http::Stream, public std::enable_shared_from_this<FaultStream> {
 public:
  struct Finish {};
  using Item = std::variant<std::string, Finish, http::Response>;

  FaultStream(std::shared_ptr<http::Stream> inner, FaultKind kind, const FaultPlan& plan,
              std::weak_ptr<FaultInjector::Timer> timer)
      : m_inner(std::move(inner)), m_kind(kind), m_stall(std::chrono::duration<double>(plan.stall_seconds)),
        m_timer(std::move(timer)) {
    if (plan.slow_headers_ms > 0) {
      m_hold_until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double, std::milli>(plan.slow_headers_ms));
    }
  }

  void send(std::string_view chunk) override {
    std::shared_ptr<http::Stream> dropped;  // released after the lock: closing runs on_close callbacks
    const std::lock_guard lock(m_mutex);
    if (!m_inner) return;
    ++m_sends;
    if (m_kind == FaultKind::disconnect_mid_stream && m_sends == 2) return disconnect(dropped);
    if (m_kind == FaultKind::malformed_chunk && m_sends == 1) chunk = k_malformed_event;
    m_queue.emplace_back(std::string(chunk));
    flush();
  }
  void finish() override {
    std::shared_ptr<http::Stream> dropped;  // released after the lock: closing runs on_close callbacks
    const std::lock_guard lock(m_mutex);
    if (!m_inner) return;
    if (m_kind == FaultKind::disconnect_mid_stream) return disconnect(dropped);  // at most one chunk went out
    m_queue.emplace_back(Finish{});
    flush();
  }
  void respond(http::Response response) override {
    std::shared_ptr<http::Stream> dropped;  // released after the lock: closing runs on_close callbacks
    const std::lock_guard lock(m_mutex);
    if (!m_inner) return;
    if (m_kind == FaultKind::disconnect_mid_stream) return disconnect(dropped);
    if (m_kind == FaultKind::malformed_chunk && response.status == 200) response.body.resize(response.body.size() / 2);
    m_queue.emplace_back(std::move(response));
    flush();
  }
  void on_close(std::function<void()> fn) override {
    std::shared_ptr<http::Stream> inner;
    {
      const std::lock_guard lock(m_mutex);
      inner = m_inner;
    }
    if (inner) {
      inner->on_close(std::move(fn));
    } else {
      fn();
    }
  }
  bool closed() const noexcept override {
    const std::lock_guard lock(m_mutex);
    return !m_inner || m_inner->closed();
  }
  // The timer's call: the hold is over.
  void release() {
    const std::lock_guard lock(m_mutex);
    m_hold_until.reset();
    m_release_scheduled = false;
    flush();
  }

 private:
  // Gives up the last handle (into `dropped`): the connection closes without an end of response.
  void disconnect(std::shared_ptr<http::Stream>& dropped) {
    m_queue.clear();
    dropped = std::move(m_inner);
  }
  // Forwards queued items unless held; the stall starts once the first chunk went out.
  void flush() {
    while (m_inner && !m_queue.empty()) {
      if (m_hold_until && std::chrono::steady_clock::now() < *m_hold_until) return schedule_release();
      Item item = std::move(m_queue.front());
      m_queue.pop_front();
      if (auto* chunk = std::get_if<std::string>(&item)) {
        m_inner->send(*chunk);
        if (m_kind == FaultKind::stall && !m_stalled) {
          m_stalled = true;
          m_hold_until = std::chrono::steady_clock::now() +
                         std::chrono::duration_cast<std::chrono::steady_clock::duration>(m_stall);
        }
      } else if (auto* response = std::get_if<http::Response>(&item)) {
        m_inner->respond(std::move(*response));
      } else {
        m_inner->finish();
      }
    }
  }
  void schedule_release() {
    if (m_release_scheduled) return;
    const auto timer = m_timer.lock();
    if (!timer) return;
    m_release_scheduled = true;
    timer->schedule(*m_hold_until, [self = shared_from_this()] { self->release(); });
  }

  mutable std::mutex m_mutex;
  std::shared_ptr<http::Stream> m_inner;
  FaultKind m_kind;
  std::chrono::duration<double> m_stall;
  std::weak_ptr<FaultInjector::Timer> m_timer;
  std::optional<SteadyTime> m_hold_until;
  std::deque<Item> m_queue;
  std::uint32_t m_sends = 0;
  bool m_stalled = false, m_release_scheduled = false;
};

}  // namespace

FaultInjector::FaultInjector(FaultPlan plan) : m_plan(plan) {
  if (m_plan.stall_rate > 0 || m_plan.slow_headers_ms > 0) m_timer = std::make_shared<Timer>();
}

FaultInjector::~FaultInjector() { stop(); }

void FaultInjector::stop() {
  if (m_timer) m_timer->stop();
}

http::StreamHandler FaultInjector::wrap(http::StreamHandler handler) {
  if (m_plan.empty()) return handler;
  return [this, handler = std::move(handler)](const http::ServerRequest& request, std::shared_ptr<http::Stream> stream) {
    const std::uint64_t n = m_next.fetch_add(1, std::memory_order_relaxed);
    const FaultKind kind = fault_for(m_plan, n);
    if (kind == FaultKind::crash) {
      std::fprintf(stderr, "serve-sim: --sim-fault crash-after:%llu: request %llu arrived, exiting\n",
                   static_cast<unsigned long long>(*m_plan.crash_after), static_cast<unsigned long long>(n + 1));
      std::fflush(stderr);
      std::_Exit(70);
    }
    auto faulty = std::make_shared<FaultStream>(std::move(stream), kind, m_plan, m_timer);
    if (kind == FaultKind::http_5xx) return faulty->respond(json_error(503, "fault injected: http-5xx"));
    handler(request, std::move(faulty));
  };
}

}  // namespace servebench::sim
