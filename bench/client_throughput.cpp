// Whole-client benchmarks of the load generator's measured path (load::run_phase):
//   BM_SimThroughput     256 streams against `servebench serve-sim --sim-time-scale 0` (a child
//                        process, the simulator as fast as it can): streamed tokens per client
//                        CPU-second (the loop threads' own CPU clocks).
//   BM_StreamThroughput  the same against the in-process TokenServer below, which writes chunks
//                        back to back without an engine in between.
//   BM_AddedLatency      1,000 streams × 50 tok/s, every chunk stamped by the server at send time:
//                        client-added latency (server send → client socket read) p50 / p99.
//                        Stream phases are spread over the 20 ms period (50,000 chunks/s evenly),
//                        as independent users would be; a server that emits every stream's token
//                        in one burst is a different measurement (see the README).
// The server is a small paced SSE server in this process (TokenServer below); only the client's
// event-loop threads are charged for CPU. Run: build/release/bench/bench_client_throughput
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <benchmark/benchmark.h>
#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/http/server.hpp"
#include "servebench/http/sse_encoder.hpp"
#include "servebench/load/phase.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace {

using namespace servebench;
using Clock = std::chrono::steady_clock;

// Streams `max_tokens` completion chunks per request, one every `interval` (zero: back to back),
// each stamped with sb_emit_ns, then a usage chunk and [DONE]. One producer thread serves every
// stream from a heap of due times.
class TokenServer {
 public:
  explicit TokenServer(std::chrono::microseconds interval) : m_interval(interval), m_server({.io_threads = 1}) {
    m_server.route_stream(http::Method::post, "/v1/completions",
                          [this](const http::ServerRequest& req, std::shared_ptr<http::Stream> s) { add(req, s); });
    if (!m_server.start()) throw std::runtime_error("token server: cannot listen");
    m_producer = std::thread([this] { produce(); });
  }
  ~TokenServer() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_cv.notify_all();
    m_producer.join();
    m_server.stop();
  }
  std::string base_url() const { return m_server.base_url(); }

 private:
  struct Active {
    Clock::time_point due;
    std::shared_ptr<http::Stream> stream;
    std::int64_t left = 0, total = 0, prompt = 0;
    bool operator>(const Active& o) const { return due > o.due; }
  };

  void add(const http::ServerRequest& req, std::shared_ptr<http::Stream> stream) {
    const auto body = boost::json::parse(req.body).as_object();
    // Spread stream phases evenly over one interval.
    const auto phase = m_interval * (m_added++ % k_phases) / k_phases;
    Active a{Clock::now() + phase, std::move(stream), body.at("max_tokens").as_int64(), body.at("max_tokens").as_int64(),
             static_cast<std::int64_t>(body.at("prompt").as_array().size())};
    std::lock_guard lock(m_mutex);
    m_heap.push(std::move(a));
    m_cv.notify_one();
  }

  void emit(Active& a, std::string& out) {
    out.clear();
    const auto now_ns = Clock::now().time_since_epoch().count();
    http::append_sse_data(out, fmt::format(R"({{"choices":[{{"text":"tok","index":0,"finish_reason":null}}],)"
                                           R"("sb_emit_ns":{}}})", now_ns));
    if (--a.left == 0) {
      http::append_sse_data(out, fmt::format(R"({{"choices":[],"usage":{{"prompt_tokens":{},)"
                                             R"("completion_tokens":{},"total_tokens":{}}}}})",
                                             a.prompt, a.total, a.prompt + a.total));
      http::append_sse_done(out);
      a.stream->send(out);
      a.stream->finish();
      return;
    }
    a.stream->send(out);
  }

  void produce() {
    std::string out;
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
      if (m_heap.empty()) {
        m_cv.wait(lock, [&] { return m_stop || !m_heap.empty(); });
        continue;
      }
      if (m_heap.top().due > Clock::now()) {
        m_cv.wait_until(lock, m_heap.top().due);
        continue;
      }
      Active a = m_heap.top();
      m_heap.pop();
      lock.unlock();
      emit(a, out);
      lock.lock();
      if (a.left > 0) {
        a.due += m_interval;
        m_heap.push(std::move(a));
      }
    }
  }

  static constexpr int k_phases = 1000;
  std::chrono::microseconds m_interval;
  std::atomic<int> m_added{0};
  http::Server m_server;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::priority_queue<Active, std::vector<Active>, std::greater<>> m_heap;
  bool m_stop = false;
  std::thread m_producer;
};

load::PhaseSpec phase_for(const std::string& base_url, int streams, int tokens, int threads) {
  load::PhaseSpec spec;
  spec.url = *http::parse_url(base_url);
  spec.target = "/v1/completions";
  for (int i = 0; i < streams; ++i) {
    spec.requests.push_back(
        {fmt::format(R"({{"model":"m","prompt":[{},2,3,4],"max_tokens":{},"ignore_eos":true,"stream":true,)"
                     R"("stream_options":{{"include_usage":true}}}})",
                     1000 + i, tokens),
         4, tokens});
  }
  spec.schedule = *load::make_schedule({.num_requests = streams});
  spec.max_concurrency = streams;
  spec.threads = threads;
  spec.timeout = std::chrono::seconds(120);
  return spec;
}

// `servebench serve-sim` as a child process: build/<preset>/servebench beside bench/.
class SimChild {
 public:
  explicit SimChild(const std::vector<std::string>& flags) {
    const auto exe = std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "servebench";
    m_out = std::filesystem::temp_directory_path() / fmt::format("sb_bench_sim_{}.out", getpid());
    m_pid = fork();
    if (m_pid == 0) {
      std::vector<std::string> args{exe.string(), "serve-sim"};
      args.insert(args.end(), flags.begin(), flags.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      if (!freopen(m_out.c_str(), "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
      execv(argv[0], argv.data());
      _exit(127);
    }
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (m_url.empty() && Clock::now() < deadline) {
      const std::string text = util::read_file(m_out).value_or("");
      if (const auto at = text.find("listening on "); at != std::string::npos && text.find('\n', at) != std::string::npos) {
        m_url = std::string(util::trim(text.substr(at + 13, text.find('\n', at) - at - 13)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~SimChild() {
    if (m_pid > 0) {
      kill(m_pid, SIGTERM);
      waitpid(m_pid, nullptr, 0);
    }
    std::filesystem::remove(m_out);
  }
  const std::string& url() const { return m_url; }

 private:
  pid_t m_pid = -1;
  std::filesystem::path m_out;
  std::string m_url;
};

int client_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// 256 streams × 2,000 tokens against `url` per iteration; counters: tokens per client CPU-second
// (the loop threads' own CPU clocks) and per wall second.
void measure_throughput(benchmark::State& state, const std::string& url) {
  const int streams = 256, tokens = 2000;
  double tokens_total = 0, cpu_s = 0, wall_s = 0;
  for (auto _ : state) {
    auto result = load::run_phase(phase_for(url, streams, tokens, client_threads()));
    if (!result) {
      state.SkipWithError(result.error().message.c_str());
      return;
    }
    for (const auto& r : result->records) tokens_total += static_cast<double>(r.output_tokens());
    cpu_s += servebench::util::to_seconds(result->loop_cpu);
    wall_s += servebench::util::to_seconds(result->span);
  }
  state.counters["tokens"] = tokens_total;
  state.counters["client_cpu_s"] = cpu_s;
  state.counters["tokens_per_client_cpu_s"] = tokens_total / cpu_s;
  state.counters["tokens_per_wall_s"] = tokens_total / wall_s;
}

void BM_StreamThroughput(benchmark::State& state) {
  TokenServer server(std::chrono::microseconds(0));
  measure_throughput(state, server.base_url());
}
BENCHMARK(BM_StreamThroughput)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_SimThroughput(benchmark::State& state) {
  SimChild sim({"--hw", "h200", "--model", "llama-3.1-8b", "--port", "0", "--sim-time-scale", "0", "--log-level",
                "warning"});
  if (sim.url().empty()) {
    state.SkipWithError("serve-sim did not start (is build/<preset>/servebench built?)");
    return;
  }
  measure_throughput(state, sim.url());
}
BENCHMARK(BM_SimThroughput)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

void BM_AddedLatency(benchmark::State& state) {
  TokenServer server(std::chrono::microseconds(20'000));  // 50 tok/s per stream
  const int streams = 1000, tokens = 100;
  load::LagHistograms lags;
  double cpu_s = 0, busy = 0;
  for (auto _ : state) {
    auto result = load::run_phase(phase_for(server.base_url(), streams, tokens, static_cast<int>(state.range(0))));
    if (!result) {
      state.SkipWithError(result.error().message.c_str());
      return;
    }
    lags.merge(result->lags);
    cpu_s += servebench::util::to_seconds(result->loop_cpu);
    busy = std::max(busy, result->max_loop_busy);
  }
  state.counters["added_p50_us"] = lags.client_added.percentile(50) / 1e3;
  state.counters["added_p99_us"] = lags.client_added.percentile(99) / 1e3;
  state.counters["read_lag_p99_us"] = lags.read_lag.percentile(99) / 1e3;
  state.counters["stamped_chunks"] = static_cast<double>(lags.client_added.count());
  state.counters["client_cpu_s"] = cpu_s;
  state.counters["max_loop_busy"] = busy;
}
// Argument: client event-loop threads.
BENCHMARK(BM_AddedLatency)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
