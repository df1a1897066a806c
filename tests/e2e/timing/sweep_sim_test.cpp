// `servebench sweep --slo … --search concurrency|rate` against serve-sim: the boundary it finds is
// the capacity the simulator itself has (concurrency: its max running requests, beyond which a
// request waits for a whole batch to finish, so TTFT p90 jumps past the SLO; rate: those requests
// over the time one takes), within one bisection step; every run is a ledger point the report
// reads; a killed sweep resumes from its ledger; `bench --slo` reports goodput under the same keys.
#include <algorithm>
#include <cmath>
#include <csignal>

#include <boost/json.hpp>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "e2e/campaign_process.hpp"
#include "e2e/sim_child.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

struct SimServer {
  std::filesystem::path dir;
  ChildProcess sim;
  std::string url;

  SimServer(const std::string& name, std::vector<std::string> extra, double time_scale = 0.2)
      : dir(bench_temp_dir(name)),
        sim(args(std::move(extra), time_scale), {{}, dir / "sim_stdout.txt", dir / "sim_stderr.txt"}) {
    url = sim.wait_for_line("servebench serve-sim listening on ", 60s).value_or("");
    EXPECT_FALSE(url.empty()) << sim.stderr_text();
  }
  static std::vector<std::string> args(std::vector<std::string> extra, double time_scale) {
    std::vector<std::string> a{"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--port", "0",
                               "--sim-time-scale", fmt::format("{}", time_scale)};
    a.insert(a.end(), extra.begin(), extra.end());
    return testing::servebench_argv(a);
  }
  json::object server_info() const {
    auto client = http::BlockingClient::create(url);
    EXPECT_TRUE(client);
    if (!client) return {};
    auto r = (*client)->send({http::Method::get, "/server_info", "", "application/json", {}}, 30s);
    EXPECT_TRUE(r && r->status == 200);
    auto v = util::parse_json(r ? r->body : "{}", "/server_info");
    return v && v->is_object() ? v->as_object() : json::object{};
  }
  std::vector<std::string> load_flags(const std::string& isl, const std::string& osl) const {
    return {"--base-url", url, "--backend", "sglang-oai", "--no-progress", "--max-client-lag", "1000",
            "--flush-cache", "--warmup-requests", "1", "--dataset-name", "random-ids", "--random-input-len", isl,
            "--random-output-len", osl, "--num-prompts", "8"};
  }
};


TEST(SweepSim, ConcurrencyBoundaryIsTheSimulatorsCapacityWithinOneStep) {
  SimServer s("sweep_concurrency", {"--max-running-requests", "5"});
  ASSERT_FALSE(s.url.empty());
  // The capacity as the simulator states it, not a number written here.
  const auto capacity = static_cast<double>(util::json_int(s.server_info(), "max_running_requests").value_or(-1));
  ASSERT_GE(capacity, 1);
  // The SLO between the two regimes, from requests measured alone: a request that fits starts at
  // once (TTFT ≈ one prefill), one beyond the capacity waits for a whole batch (TTFT ≈ E2E; the
  // batch's requests all have the same length, so they finish together). Half the E2E leaves a
  // factor of two below the waiting regime and a wide margin above the prefill, for a loaded
  // machine's scheduling jitter; p90 over 16+ requests lets one jittered request pass.
  auto flags = s.load_flags("64", "128");
  flags.insert(flags.begin(), "bench");
  for (const auto& f : {"--max-concurrency", "1", "--output-file", "probe.jsonl"}) flags.emplace_back(f);
  const Finished probe = run_servebench(flags, s.dir);
  ASSERT_EQ(probe.exit_code, 0) << probe.err;
  const auto line = util::parse_json(util::trim(util::read_file(s.dir / "probe.jsonl").value_or("")), "probe");
  ASSERT_TRUE(line && line->is_object());
  const double ttft = number_of(line->as_object(), "mean_ttft_ms"), e2e = number_of(line->as_object(), "mean_e2e_latency_ms");
  ASSERT_GT(ttft, 0);
  ASSERT_GT(e2e, 8 * ttft) << "the two regimes are too close to tell apart";
  const double slo = e2e / 2;

  std::vector<std::string> sweep{"sweep"};
  auto load = s.load_flags("64", "128");
  load.back() = "16";  // --num-prompts: at least 16 per run (2 × C above 8)
  sweep.insert(sweep.end(), load.begin(), load.end());
  for (const auto& f : {"--search", "concurrency", "--low", "1", "--high", "64", "--max-runs", "14", "--out", "run"}) {
    sweep.emplace_back(f);
  }
  sweep.emplace_back("--slo");
  sweep.emplace_back(fmt::format("ttft_p90_ms={:.3f}", slo));
  const Finished r = run_servebench(sweep, s.dir, 300s);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json::object result = read_json_file(s.dir / "run/slo_search.json");
  ASSERT_TRUE(result.at("boundary").is_number()) << r.out;
  const double boundary = result.at("boundary").to_number<double>();
  const double step = result.at("step").to_number<double>();
  EXPECT_TRUE(result.at("converged").as_bool()) << r.out;
  EXPECT_LE(step, 1.0);
  EXPECT_LE(std::abs(boundary - capacity), step) << r.out;
  // Every run is a normal ledger point with its SLO verdict; the runs are bounded.
  const auto ledger = read_run_ledger(s.dir / "run");
  const auto& runs = result.at("runs").as_array();
  ASSERT_EQ(ledger.records.size(), runs.size());
  EXPECT_LE(runs.size(), 14u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& p = ledger.records[i];
    EXPECT_EQ(static_cast<double>(p.concurrency), runs[i].at("load").to_number<double>());
    const bool met = p.extra.at("slo").at("met").as_bool();
    EXPECT_EQ(met, runs[i].at("met").as_bool());
    EXPECT_EQ(met, static_cast<double>(p.concurrency) <= capacity) << "C=" << p.concurrency << ": " << r.out;
    EXPECT_EQ(p.completed, std::max<std::int64_t>(16, 2 * p.concurrency));
    EXPECT_TRUE(std::filesystem::exists(s.dir / fmt::format("run/requests/server/slo-search/search-{}.jsonl", i + 1)));
  }
  EXPECT_NE(r.out.find(fmt::format("SLO boundary: concurrency {}", boundary)), std::string::npos) << r.out;
  // The report reads the run directory like any other and states the boundary.
  const Finished report = run_servebench({"report", "run", "--format", "md"}, s.dir);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = util::read_file(s.dir / "run/report.md").value_or("");
  const auto at = md.find("| server | slo-search | ttft_p90_ms ≤ ");
  ASSERT_NE(at, std::string::npos) << md;
  const std::string row = md.substr(at, md.find('\n', at) - at);
  EXPECT_NE(row.find(fmt::format("C={}", boundary)), std::string::npos) << row;
  // The runs' own TTFT p90 against the load, with the SLO as a line (drawn in the HTML).
  EXPECT_NE(md.find("*Chart: slo-search: TTFT p90 vs concurrency, dashed line at SLO ttft p90 ≤ "), std::string::npos)
      << md;
}

// `--search rate`: open loop at a constant rate. The simulator serves at most N requests at once
// (its max running requests, from /server_info) and, with mixed chunks, a request of fixed length
// takes S whether it runs alone or in a full batch of N (decode steps are weight-read bound), so it
// completes at most N / S requests per second: arrivals beyond that queue, and every further
// request waits longer. S comes from a closed-loop run of N requests at once, not from the sweep.
// The simulator runs in real time, so rates and latencies share one time base.
TEST(SweepSim, RateBoundaryIsTheSimulatorsCapacityWithinOneStep) {
  SimServer s("sweep_rate", {"--max-running-requests", "4", "--enable-mixed-chunk", "--tp-size", "4"}, 1.0);
  ASSERT_FALSE(s.url.empty());
  const auto n = static_cast<double>(util::json_int(s.server_info(), "max_running_requests").value_or(-1));
  ASSERT_GE(n, 1);
  auto probe = s.load_flags("64", "64");
  probe.insert(probe.begin(), "bench");
  for (const auto& f : {"--max-concurrency", "4", "--output-file", "probe.jsonl"}) probe.emplace_back(f);
  probe[std::find(probe.begin(), probe.end(), "--num-prompts") - probe.begin() + 1] = "4";
  const Finished measured = run_servebench(probe, s.dir);
  ASSERT_EQ(measured.exit_code, 0) << measured.err;
  const auto line = util::parse_json(util::trim(util::read_file(s.dir / "probe.jsonl").value_or("")), "probe");
  ASSERT_TRUE(line && line->is_object());
  const double e2e_s = number_of(line->as_object(), "mean_e2e_latency_ms") / 1000;
  const double ttft_s = number_of(line->as_object(), "mean_ttft_ms") / 1000;
  ASSERT_GT(e2e_s, 10 * ttft_s) << "a request's queueing could not be told from its prefill";
  const double capacity = n / e2e_s;  // requests per second
  // The SLO: a quarter of S on TTFT p90. Below the capacity a request starts at once (TTFT ≈ one
  // step); 10 % above it the queue grows by 0.1 / 1.1 · S / N per request, so over 40 requests the
  // p90 request waits about 0.8 S.
  const double slo_ms = e2e_s * 1000 / 4;
  std::vector<std::string> sweep{"sweep"};
  auto load = s.load_flags("64", "64");
  load.back() = "40";  // --num-prompts
  sweep.insert(sweep.end(), load.begin(), load.end());
  for (const auto& f : {"--search", "rate", "--arrival", "constant", "--max-runs", "12", "--rate-tolerance", "0.1",
                        "--out", "run"}) {
    sweep.emplace_back(f);
  }
  for (const std::string& f : {std::string("--low"), fmt::format("{:.4f}", capacity * 0.6), std::string("--high"),
                               fmt::format("{:.4f}", capacity * 4), std::string("--slo"),
                               fmt::format("ttft_p90_ms={:.3f}", slo_ms)}) {
    sweep.push_back(f);
  }
  const Finished r = run_servebench(sweep, s.dir, 300s);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json::object result = read_json_file(s.dir / "run/slo_search.json");
  ASSERT_TRUE(result.at("boundary").is_number() && result.at("first_miss").is_number()) << r.out;
  const double boundary = result.at("boundary").to_number<double>();
  const double step = result.at("step").to_number<double>();
  EXPECT_TRUE(result.at("converged").as_bool()) << r.out;
  EXPECT_LE(step, 0.1 * boundary * (1 + 1e-9));
  EXPECT_LE(std::abs(boundary - capacity), step) << "capacity " << capacity << " req/s\n" << r.out;
  // Every run is an open-loop ledger point at its rate, met exactly when the search took it as met.
  const auto ledger = read_run_ledger(s.dir / "run");
  const auto& runs = result.at("runs").as_array();
  ASSERT_EQ(ledger.records.size(), runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ASSERT_TRUE(ledger.records[i].request_rate.has_value());
    EXPECT_DOUBLE_EQ(*ledger.records[i].request_rate, runs[i].at("load").to_number<double>());
    EXPECT_EQ(ledger.records[i].extra.at("slo").at("met").as_bool(), runs[i].at("met").as_bool());
  }
}

// A sweep killed (kill -9) mid-search and rerun with the same --out goes on where it stopped: the
// runs the ledger holds are taken as recorded, none is measured twice, none is lost; a rerun with
// other settings is refused and touches nothing.
TEST(SweepSim, AKilledSweepResumesWithoutLosingOrRepeatingARun) {
  SimServer s("sweep_resume", {"--max-running-requests", "3"});
  ASSERT_FALSE(s.url.empty());
  std::vector<std::string> sweep{"sweep"};
  const auto load = s.load_flags("64", "128");
  sweep.insert(sweep.end(), load.begin(), load.end());
  // An SLO every run meets: the search doubles up to --high, a run count known in advance
  // (1, 2, 4, 8, 16), and C=16 (32 requests) is long enough to be killed in.
  for (const auto& f : {"--search", "concurrency", "--low", "1", "--high", "16", "--max-runs", "8", "--out", "run",
                        "--slo", "e2e_p99_ms=1000000"}) {
    sweep.emplace_back(f);
  }
  const auto ledger_path = s.dir / "run/ledger.jsonl";
  const auto records = [&] { return results::read_ledger(ledger_path).value_or(results::Ledger{}).records.size(); };
  {
    ChildProcess first = start_in(sweep, s.dir, "first");
    ASSERT_TRUE(wait_until([&] { return records() >= 3 || first.wait_exit(0ms).has_value(); }, 120s)) << first.stderr_text();
    ASSERT_FALSE(first.wait_exit(0ms).has_value()) << "the sweep ended before it could be killed: " << first.stdout_text();
    first.signal(SIGKILL);
    ASSERT_TRUE(first.wait_exit(10s));
  }
  const std::size_t before = records();
  ASSERT_GE(before, 3u);
  ASSERT_LT(before, 5u);
  const std::string recorded = util::read_file(ledger_path).value_or("");

  const Finished resumed = run_servebench(sweep, s.dir, 120s, "resumed");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find(fmt::format("resuming run: {} run{} recorded", before, before == 1 ? "" : "s")),
            std::string::npos)
      << resumed.out;
  for (std::size_t i = 1; i <= before; ++i) {
    EXPECT_NE(resumed.out.find(fmt::format("[{}] concurrency {}: SLO met (recorded)", i, 1 << (i - 1))),
              std::string::npos)
        << resumed.out;
  }
  // The ledger: what was recorded stays as it was, then the rest; runs 1..5 each once, at the loads
  // the search asks for, each with its per-request records.
  const std::string after = util::read_file(ledger_path).value_or("");
  EXPECT_EQ(after.substr(0, recorded.size()), recorded);
  const auto ledger = read_run_ledger(s.dir / "run");
  const json::object result = read_json_file(s.dir / "run/slo_search.json");
  EXPECT_EQ(result.at("state").as_string(), "done");
  EXPECT_EQ(result.at("boundary").to_number<double>(), 16);
  ASSERT_EQ(ledger.records.size(), 5u) << after;
  ASSERT_EQ(result.at("runs").as_array().size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    const auto& p = ledger.records[i];
    EXPECT_EQ(p.extra.at("search").at("run").to_number<std::int64_t>(), static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(p.concurrency, std::int64_t{1} << i);
    EXPECT_TRUE(std::filesystem::exists(s.dir / fmt::format("run/requests/server/slo-search/search-{}.jsonl", i + 1)));
  }
  // A finished sweep rerun measures nothing.
  const Finished again = run_servebench(sweep, s.dir, 120s, "again");
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_EQ(util::read_file(ledger_path).value_or(""), after);
  EXPECT_NE(again.out.find("[5] concurrency 16: SLO met (recorded)"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("SLO boundary: concurrency 16"), std::string::npos) << again.out;
  // Other settings: refused, naming what differs; nothing written.
  auto other = sweep;
  *std::find(other.begin(), other.end(), "16") = "32";  // --high
  const Finished refused = run_servebench(other, s.dir, 120s, "refused");
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("--high: recorded 16 → now 32"), std::string::npos) << refused.err;
  EXPECT_EQ(util::read_file(ledger_path).value_or(""), after);
  // A ledger without the settings it was measured with (another tool's directory) is no sweep to resume.
  std::filesystem::remove(s.dir / "run/slo_search.json");
  const Finished unknown = run_servebench(sweep, s.dir, 120s, "unknown");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.out << unknown.err;
  EXPECT_NE(unknown.err.find("holds a ledger but no sweep settings"), std::string::npos) << unknown.err;
  EXPECT_EQ(util::read_file(ledger_path).value_or(""), after);
}

TEST(SweepSim, BenchSloReportsGoodputPerRequest) {
  SimServer s("bench_slo", {"--max-running-requests", "2"});
  ASSERT_FALSE(s.url.empty());
  auto flags = s.load_flags("64", "64");
  flags.insert(flags.begin(), "bench");
  // Limits every request meets, then one none can: goodput counts all, then none; the run's verdict follows.
  for (const auto& f : {"--max-concurrency", "4", "--output-file", "out.jsonl", "--slo", "ttft_p99_ms=100000,e2e_p99_ms=100000"}) {
    flags.emplace_back(f);
  }
  const Finished all = run_servebench(flags, s.dir);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("SLO met: ttft p99"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("(8 of 8 requests good)"), std::string::npos) << all.out;
  const auto line = util::parse_json(util::trim(util::read_file(s.dir / "out.jsonl").value_or("")), "out");
  ASSERT_TRUE(line && line->is_object());
  EXPECT_TRUE(line->as_object().at("slo").at("met").as_bool());
  flags.back() = "ttft_p99_ms=0.001";
  const Finished none = run_servebench(flags, s.dir);
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("SLO missed: ttft p99"), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("(0 of 8 requests good)"), std::string::npos) << none.out;
  flags.emplace_back("--goodput");
  flags.emplace_back("ttft:5");
  EXPECT_EQ(run_servebench(flags, s.dir).exit_code, 2) << "--slo and --goodput are one or the other";
}

}  // namespace
}  // namespace servebench::e2e
