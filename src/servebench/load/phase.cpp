#include "servebench/load/phase.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <ctime>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "servebench/http/event_loop.hpp"
#include "servebench/http/stream_client.hpp"
#include "servebench/load/admission.hpp"
#include "servebench/load/metrics.hpp"
#include "servebench/load/noise_probe.hpp"

namespace servebench::load {
namespace {

constexpr util::Nanos k_probe_lead = std::chrono::milliseconds(30);  // noise samples before the phase
constexpr util::Nanos k_stall_every = std::chrono::milliseconds(100);  // the planted loop stall's period

struct Shared;

// One event-loop thread: its client, its sinks, its recorder.
struct Worker final : http::ReadObserver {
  Shared& shared;
  http::EventLoop loop;
  std::unique_ptr<http::StreamClient> client;
  ThreadRecorder recorder;
  std::vector<std::unique_ptr<RequestSink>> sinks;  // every sink this worker made
  std::vector<RequestSink*> idle;
  std::uint64_t connections_opened = 0;
  util::Nanos cpu_start{0}, cpu_end{0};  // this loop thread's CPU clock around the phase

  explicit Worker(Shared& s) : shared(s) {}
  void on_read_parsed(util::Nanos since_arrival) override {
    recorder.lags.arrival_lag.record(static_cast<std::uint64_t>(since_arrival.count()));
  }
  void tick(util::TimePoint due);
  void stall(util::TimePoint due);
  RequestSink& take_sink();
  void start_request(std::uint32_t i, util::TimePoint released);
  void finished(RequestSink& sink);
};

struct Shared {
  PhaseSpec spec;
  util::TimePoint origin;
  std::vector<RequestRecord> records;
  Admission admission;
  std::vector<std::unique_ptr<Worker>> workers;
  std::mutex done_mutex;
  std::condition_variable done_cv;
  std::int64_t done = 0;
  std::atomic<std::int64_t> running{0}, failed{0}, output_tokens{0};
  std::atomic<bool> stopping{false};  // interrupted: nothing new starts
  std::vector<char> started;          // per request; each element written by the loop that starts it
  stats::Histogram noise_floor{7};  // written by the NoiseProbe thread only, read after it stopped

  explicit Shared(PhaseSpec s) : spec(std::move(s)), admission(spec.max_concurrency) {}
  // A request became due on `worker`'s loop.
  // In open loop a request the cap does not hold is allowed at its scheduled time, so a late timer
  // is send lag; in closed loop it is allowed when its turn comes.
  void due(Worker& worker, std::uint32_t i) {
    const util::TimePoint allowed = spec.schedule.open_loop ? origin + spec.schedule.offsets[i] : spec.clock->now();
    if (admission.admit(i)) worker.start_request(i, allowed);
  }
};

RequestSink& Worker::take_sink() {
  if (idle.empty()) {
    const Streaming mode = shared.spec.streaming;
    sinks.push_back(std::make_unique<RequestSink>(recorder, *shared.spec.clock, shared.origin, mode,
                                                  [this](RequestSink& s) { finished(s); }));
    return *sinks.back();
  }
  RequestSink* s = idle.back();
  idle.pop_back();
  return *s;
}

void Worker::start_request(std::uint32_t i, util::TimePoint released) {
  if (shared.stopping.load(std::memory_order_relaxed)) return;
  shared.started[i] = 1;
  RequestRecord& r = shared.records[i];
  r.released = released - shared.origin;
  if (!shared.spec.schedule.open_loop) r.intended = r.released;
  RequestSink& sink = take_sink();
  sink.begin(r);
  http::Request request;
  request.method = http::Method::post;
  request.target = shared.spec.target;
  request.body = std::move(shared.spec.requests[i].body);
  request.headers = shared.spec.headers;
  shared.running.fetch_add(1, std::memory_order_relaxed);
  r.sent = shared.spec.clock->now() - shared.origin;
  client->start(std::move(request), sink, shared.spec.timeout, shared.spec.stall_timeout);
}

void Worker::finished(RequestSink& sink) {
  const RequestRecord& r = sink.record();
  shared.running.fetch_sub(1, std::memory_order_relaxed);
  if (!r.ok()) shared.failed.fetch_add(1, std::memory_order_relaxed);
  shared.output_tokens.fetch_add(r.ok() ? r.output_tokens() : 0, std::memory_order_relaxed);
  // The next queued request starts here, on this loop, before this sink returns to the pool, so a
  // sink is never restarted from inside its own on_done. A conversation keeps its slot through the
  // think time and sends its next turn from a timer.
  if (shared.stopping.load(std::memory_order_relaxed)) {
    // interrupted: nothing new starts
  } else if (const auto turn = shared.spec.requests[r.index].next) {
    const util::TimePoint due = shared.spec.clock->now() + shared.spec.requests[r.index].think;
    loop.post_at(due, [this, i = *turn] { start_request(i, shared.spec.clock->now()); });
  } else if (const auto next = shared.admission.release()) {
    start_request(*next, shared.spec.clock->now());
  }
  idle.push_back(&sink);
  std::lock_guard lock(shared.done_mutex);
  const bool all = ++shared.done == static_cast<std::int64_t>(shared.records.size());
  if (all || shared.stopping.load(std::memory_order_relaxed)) shared.done_cv.notify_all();
}

// The loop-lag meter: a periodic timer on this loop's own timer heap (the one open-loop sends
// use), on an absolute schedule, recording how late it ran. A tick that ran late by several
// periods also records the ticks it displaced (late − period, late − 2·period, …), as wrk2 and
// HdrHistogram do, so one long stall weighs as the many ticks it blocked, not as one sample.
void Worker::tick(util::TimePoint due) {
  const util::TimePoint now = std::chrono::steady_clock::now();  // the clock the loop's timers run on
  const util::Nanos period = shared.spec.loop_lag_period;
  const util::Nanos late = std::max(util::Nanos{0}, now - due);
  const std::int64_t missed = std::min<std::int64_t>(late / period, k_max_backfilled_ticks);
  for (std::int64_t k = 0; k <= missed; ++k) {
    recorder.lags.loop_lag.record(static_cast<std::uint64_t>((late - k * period).count()));
  }
  const util::TimePoint next = due + (late / period + 1) * period;
  loop.post_at(next, [this, next] { tick(next); });
}

// The planted fault: the loop thread busy for loop_stall every 100 ms (as a client thread doing
// unrelated CPU work on the event loop would be).
void Worker::stall(util::TimePoint due) {
  const util::TimePoint start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < shared.spec.loop_stall) {
  }
  const util::TimePoint next = std::max(due + k_stall_every, start + shared.spec.loop_stall);
  loop.post_at(next, [this, next] { stall(next); });
}

util::Nanos thread_cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + util::Nanos(ts.tv_nsec);
}

// Reads every loop thread's CPU clock on that thread; returns once all have.
void read_loop_cpu(Shared& s, util::Nanos Worker::*field) {
  std::latch read(static_cast<std::ptrdiff_t>(s.workers.size()));
  for (auto& w : s.workers) {
    Worker* worker = w.get();
    worker->loop.post([worker, field, &read] {
      worker->*field = thread_cpu_now();
      read.count_down();
    });
  }
  read.wait();
}

void init_records(Shared& s) {
  s.records.resize(s.spec.requests.size());
  s.started.assign(s.spec.requests.size(), 0);
  for (std::size_t i = 0; i < s.records.size(); ++i) {
    RequestRecord& r = s.records[i];
    r.index = static_cast<std::uint32_t>(i);
    r.intended = s.spec.schedule.offsets[i];
    r.input_tokens_planned = s.spec.requests[i].input_tokens_planned;
    r.output_tokens_requested = s.spec.requests[i].output_tokens_requested;
  }
}

// Room for every token chunk this worker is likely to see, so recording does not reallocate.
std::size_t expected_chunks(const PhaseSpec& spec) {
  std::int64_t tokens = 0;
  for (const PreparedRequest& p : spec.requests) tokens += p.output_tokens_requested;
  return static_cast<std::size_t>(tokens / std::max(1, spec.threads) * 5 / 4 + 1024);
}

util::Result<void> start_workers(Shared& s) {
  const std::size_t reserve = expected_chunks(s.spec);
  for (int t = 0; t < std::max(1, s.spec.threads); ++t) {
    auto w = std::make_unique<Worker>(s);
    http::StreamClientOptions options;
    if (s.spec.loop_lag_period.count() > 0) options.read_observer = w.get();  // measured phases only
    auto client = http::StreamClient::create(w->loop, s.spec.url, options);
    if (!client) return std::unexpected(client.error());
    w->client = std::move(*client);
    w->recorder.chunks.reserve(reserve);
    w->recorder.burn_per_read = s.spec.burn_per_read;
    w->loop.start();
    s.workers.push_back(std::move(w));
  }
  return {};
}

// The loop-lag meter and the planted stall start with the phase and end when its loops stop.
void start_meters(Shared& s) {
  for (auto& w : s.workers) {
    Worker* worker = w.get();
    if (s.spec.loop_lag_period.count() > 0) {
      const util::TimePoint first = s.origin + s.spec.loop_lag_period;
      worker->loop.post_at(first, [worker, first] { worker->tick(first); });
    }
    if (s.spec.loop_stall.count() > 0) {
      const util::TimePoint first = s.origin + k_stall_every;
      worker->loop.post_at(first, [worker, first] { worker->stall(first); });
    }
  }
}

void schedule_requests(Shared& s) {
  const std::size_t n = s.workers.size();
  for (std::uint32_t i = 0; i < s.records.size(); ++i) {
    if (s.spec.requests[i].waits) continue;  // started by the turn before it
    Worker& w = *s.workers[i % n];
    if (s.spec.schedule.open_loop) {
      w.loop.post_at(s.origin + s.spec.schedule.offsets[i], [&s, &w, i] { s.due(w, i); });
    } else {
      w.loop.post([&s, &w, i] { s.due(w, i); });
    }
  }
}

bool interrupt_requested(const Shared& s) {
  return s.spec.interrupt != nullptr && s.spec.interrupt->load(std::memory_order_relaxed);
}

// Until every request ended, or — once interrupted — until none is running or the grace is over.
void wait_for_all(Shared& s) {
  std::unique_lock lock(s.done_mutex);
  const auto total = static_cast<std::int64_t>(s.records.size());
  std::optional<util::TimePoint> give_up;
  while (s.done < total) {
    if (!give_up && interrupt_requested(s)) {
      s.stopping.store(true);
      give_up = s.spec.clock->now() + s.spec.interrupt_grace;
    }
    if (give_up && (s.running.load() == 0 || s.spec.clock->now() >= *give_up)) break;
    s.done_cv.wait_for(lock, s.spec.progress_interval, [&] { return s.done == total; });
    if (s.spec.on_progress) {
      PhaseProgress p{s.done, total, s.running.load(), s.failed.load(), s.output_tokens.load(),
                      s.spec.clock->now() - s.origin};
      lock.unlock();
      s.spec.on_progress(p);
      lock.lock();
    }
  }
}

PhaseResult collect(Shared& s) {
  PhaseResult out;
  out.origin = s.origin;
  std::size_t total = 0;
  for (const auto& w : s.workers) total += w->recorder.chunks.size();
  out.chunks.reserve(total);
  for (auto& w : s.workers) {
    out.chunks.insert(out.chunks.end(), w->recorder.chunks.begin(), w->recorder.chunks.end());
    out.lags.merge(w->recorder.lags);
    out.connections_opened += w->connections_opened;
  }
  out.lags.floor.merge(s.noise_floor);
  sort_chunks(out.chunks);
  for (const RequestRecord& r : s.records) out.span = std::max(out.span, r.done);
  out.threads = static_cast<int>(s.workers.size());
  for (const auto& w : s.workers) {
    const util::Nanos cpu = w->cpu_end - w->cpu_start;
    out.loop_cpu += cpu;
    if (out.span.count() > 0) {
      out.max_loop_busy = std::max(out.max_loop_busy, util::to_seconds(cpu) / util::to_seconds(out.span));
    }
  }
  out.records = std::move(s.records);
  return out;
}

// After an interrupt: keeps the requests that ended on their own, renumbered in order (chunks
// follow), so every metric is over completed requests only.
void keep_finished(Shared& s, PhaseResult& out) {
  out.interrupted = true;
  std::vector<std::int64_t> renumber(out.records.size(), -1);
  std::vector<RequestRecord> kept;
  for (std::size_t i = 0; i < out.records.size(); ++i) {
    RequestRecord& r = out.records[i];
    if (!s.started[i]) {
      ++out.not_sent;
    } else if (r.error == RequestError::cancelled) {
      ++out.cut_off;
    } else {
      renumber[i] = static_cast<std::int64_t>(kept.size());
      r.index = static_cast<std::uint32_t>(kept.size());
      kept.push_back(std::move(r));
    }
  }
  std::erase_if(out.chunks, [&](const ChunkMark& c) { return renumber[c.request] < 0; });
  for (ChunkMark& c : out.chunks) c.request = static_cast<std::uint32_t>(renumber[c.request]);
  out.records = std::move(kept);
  out.span = util::Nanos{0};
  for (const RequestRecord& r : out.records) out.span = std::max(out.span, r.done);
}

void stop_workers(Shared& s) {
  for (auto& w : s.workers) w->loop.stop();
  for (auto& w : s.workers) {
    if (!w->client) continue;
    w->connections_opened = w->client->connections_opened();
    w->client.reset();  // after its loop stopped, as StreamClient requires
  }
}

}  // namespace

util::Result<PhaseResult> run_phase(PhaseSpec spec) {
  SB_CHECK(spec.schedule.offsets.size() == spec.requests.size());
  auto shared = std::make_unique<Shared>(std::move(spec));
  Shared& s = *shared;
  init_records(s);
  if (auto ok = start_workers(s); !ok) {
    stop_workers(s);
    return std::unexpected(ok.error());
  }
  std::optional<NoiseProbe> probe;
  if (s.spec.measure_noise_floor) {
    probe.emplace(s.noise_floor);
    std::this_thread::sleep_for(k_probe_lead);
  }
  read_loop_cpu(s, &Worker::cpu_start);
  s.origin = s.spec.clock->now();
  if (!s.records.empty()) {
    start_meters(s);
    schedule_requests(s);
    wait_for_all(s);
  }
  read_loop_cpu(s, &Worker::cpu_end);
  if (probe) probe->stop();
  s.stopping.store(s.stopping.load() || interrupt_requested(s));  // before the cut-off requests' on_done
  stop_workers(s);
  PhaseResult out = collect(s);
  if (s.stopping.load()) keep_finished(s, out);
  return out;
}

}  // namespace servebench::load
