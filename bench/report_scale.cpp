// The report at scale: `servebench report` (Markdown + HTML) on a run directory of N points, run as
// a child process so its wall time, peak RSS and output sizes are what a user gets. The run
// directory has 20 arms × 50 scenarios × N/1000 concurrency levels (100,000 points: 100 levels), as
// a planner sweep or many merged campaigns give; 2 % of the points are skipped or invalid.
// Budget at 100,000 points: ≤ 5 s, ≤ 500 MB peak RSS, HTML ≤ 20 MB. Reported: wall time (Time), the
// child's CPU seconds, its peak RSS and the sizes of report.html and report.md.
//   cmake --preset release && cmake --build --preset release --target bench_report_scale servebench
//   build/release/bench/bench_report_scale
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <string>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "servebench/results/point.hpp"
#include "servebench/results/run_layout.hpp"
#include "servebench/results/server_facts_file.hpp"
#include "servebench/util/file_io.hpp"

namespace {

namespace fs = std::filesystem;
using servebench::results::PointRecord;
using servebench::results::PointStatus;

constexpr int k_arms = 20, k_scenarios = 50;

servebench::results::LatencyStats stats(double mean) {
  return {mean, mean * 0.98, mean * 0.1, mean * 1.2, mean * 1.3, mean * 1.5, mean * 1.8};
}

PointRecord point(int arm, int scenario, std::int64_t concurrency, int n) {
  PointRecord r;
  r.campaign = "scale";
  r.arm = fmt::format("arm{:02}", arm);
  r.scenario = fmt::format("s{:02}", scenario);
  r.isl = 1024 << (scenario % 5);
  r.osl = 128 << (scenario % 3);
  r.concurrency = r.effective_concurrency = concurrency;
  r.num_prompts = r.completed = std::max<std::int64_t>(8, 2 * concurrency);
  r.started_at = fmt::format("2026-11-29T{:02}:{:02}:{:02}Z", n / 3600 % 24, n / 60 % 60, n % 60);
  r.duration_s = 30 + n % 17;
  r.gpus = 8;
  const double load = std::log2(static_cast<double>(concurrency) + 1.0);
  const double speed = 1.0 + 0.05 * arm;
  r.ttft_ms = stats(80 * load * speed);
  r.tpot_ms = stats((6 + 2 * load) / speed);
  r.itl_ms = stats((6 + 2 * load) / speed);
  r.e2e_ms = stats(r.ttft_ms.mean + r.tpot_ms.mean * static_cast<double>(r.osl));
  r.throughput.output_tok_per_s = 1000.0 * static_cast<double>(concurrency) / r.tpot_ms.mean;
  r.throughput.total_tok_per_s = r.throughput.output_tok_per_s * static_cast<double>(r.isl + r.osl) / r.osl;
  r.throughput.request_per_s = r.throughput.output_tok_per_s / static_cast<double>(r.osl);
  r.throughput.input_tok_per_s = r.throughput.total_tok_per_s - r.throughput.output_tok_per_s;
  r.throughput.output_tok_per_s_per_gpu = r.throughput.output_tok_per_s / r.gpus;
  r.throughput.total_tok_per_s_per_gpu = r.throughput.total_tok_per_s / r.gpus;
  r.cache = {true, 0.0, true, 1};
  r.gate = {true, true};
  r.server = {"sim", "sha256:00", servebench::results::RunLayout::server_facts_ref(r.arm)};
  r.tool = {"0.1.0", "bench"};
  if (n % 100 == 7) {
    r.status = PointStatus::skipped;
    r.reason = "isl+osl exceeds the context";
  } else if (n % 100 == 42) {
    r.status = PointStatus::invalid;
    r.reason = "cache hit rate 0.02 > 0.01 after 2 attempts";
  }
  return r;
}

// DIR with ledger.jsonl (one write, not one fsync per record) and every arm's facts.
fs::path make_run(std::int64_t points) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("servebench-report-scale-{}-{}", getpid(), points);
  fs::remove_all(dir);
  const servebench::results::RunLayout run(dir);
  const std::int64_t levels = std::max<std::int64_t>(1, points / (k_arms * k_scenarios));
  std::string ledger;
  int n = 0;
  for (int a = 0; a < k_arms; ++a) {
    servebench::results::ServerFactsFile facts;
    facts.arm = fmt::format("arm{:02}", a);
    facts.engine = "sim";
    facts.gpus = 8;
    servebench::wire::ServerFacts server;
    server.engine = "sim";
    server.version = "0.1.0";
    server.model = "glm-5.3-flash";
    facts.facts = std::move(server);
    (void)servebench::results::write_server_facts(run.server_facts(facts.arm), facts);
    for (int s = 0; s < k_scenarios; ++s) {
      for (std::int64_t c = 1; c <= levels; ++c) ledger += servebench::results::to_json_line(point(a, s, c, n++)) + "\n";
    }
  }
  (void)servebench::util::write_file_atomic(run.ledger(), ledger);
  return dir;
}

void BM_Report(benchmark::State& state) {
  const fs::path dir = make_run(state.range(0));
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      if (freopen("/dev/null", "w", stdout) == nullptr) _exit(126);
      execl(SERVEBENCH_BIN, SERVEBENCH_BIN, "report", dir.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) state.SkipWithError("servebench report failed");
    state.counters["peak_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
    // CPU seconds beside the wall time: on a shared machine the wall time also holds other work.
    const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    state.counters["cpu_s"] = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  }
  state.counters["points"] = static_cast<double>(state.range(0));
  state.counters["html_MB"] = static_cast<double>(fs::file_size(dir / "report.html")) / 1e6;
  state.counters["md_MB"] = static_cast<double>(fs::file_size(dir / "report.md")) / 1e6;
  if (std::getenv("SERVEBENCH_KEEP_RUN") == nullptr) fs::remove_all(dir);
}
BENCHMARK(BM_Report)->Arg(1000)->Arg(10000)->Arg(100000)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
