// The machine's loopback floor: one-way latency of a small TCP write on 127.0.0.1 between two
// threads of one process (sender stamps the steady clock into the bytes, the receiver reads the
// clock right after its blocking read returns), one message every millisecond. It holds the
// kernel's loopback path and one thread wake-up — what any server → client chunk pays at least on
// this machine at this moment. scripts/bench-real-pacing runs it beside a bench run, so both see
// the same load; its p50/p99/p99.9 are the floor the client-added latency is read against.
// Run: build/release/bench/bench_loopback_floor --benchmark_min_time=10s (or --seconds via the script)
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

using Clock = std::chrono::steady_clock;

struct Pair {
  int client = -1, server = -1;
  Pair() {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listener, 1);
    socklen_t n = sizeof a;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &n);
    client = ::socket(AF_INET, SOCK_STREAM, 0);
    ::connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a);
    server = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    const int one = 1;
    ::setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~Pair() {
    ::close(client);
    ::close(server);
  }
};

double percentile(std::vector<std::int64_t>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(v.size()))));
  return static_cast<double>(v[rank - 1]) / 1e3;  // µs
}

// One-way latency server → client: a sender thread writes a 64-byte stamped message every
// millisecond (absolute schedule); the benchmark thread blocks in recv, so each sample holds a
// thread wake-up, as a client's event loop waiting in epoll does.
void BM_LoopbackOneWay(benchmark::State& state) {
  Pair pair;
  std::atomic<bool> stop{false};
  std::thread sender([&] {
    auto next = Clock::now();
    while (!stop.load(std::memory_order_relaxed)) {
      next += std::chrono::milliseconds(1);
      std::this_thread::sleep_until(next);
      char msg[64] = {};
      const std::int64_t sent = Clock::now().time_since_epoch().count();
      std::memcpy(msg, &sent, sizeof sent);
      if (::send(pair.server, msg, sizeof msg, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof msg)) return;
    }
  });
  std::vector<std::int64_t> samples;
  samples.reserve(1 << 20);
  for (auto _ : state) {
    char msg[64];
    std::size_t got = 0;
    while (got < sizeof msg) {
      const ssize_t n = ::recv(pair.client, msg + got, sizeof msg - got, 0);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    const std::int64_t now = Clock::now().time_since_epoch().count();
    std::int64_t sent = 0;
    std::memcpy(&sent, msg, sizeof sent);
    samples.push_back(now - sent);
  }
  stop = true;
  ::shutdown(pair.server, SHUT_RDWR);
  sender.join();
  state.counters["samples"] = static_cast<double>(samples.size());
  state.counters["p50_us"] = percentile(samples, 50);
  state.counters["p99_us"] = percentile(samples, 99);
  state.counters["p99.9_us"] = percentile(samples, 99.9);
}
BENCHMARK(BM_LoopbackOneWay)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
