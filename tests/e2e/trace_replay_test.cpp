// Trace replay on serve-sim: the shipped Mooncake-format trace (data/traces/, written by
// scripts/make-trace) in `bench` and as a campaign scenario — exact token counts from the trace,
// requests sent at their (scaled) timestamps, and the simulator's measured prefix hit rate equal to
// the trace's theoretical sharing, which this test works out on its own from the hash ids.
#include <map>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "e2e/campaign_process.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const std::filesystem::path k_trace = std::filesystem::path(SERVEBENCH_SOURCE_DIR) / "data/traces/small-mooncake.jsonl";

struct TraceFacts {
  std::int64_t requests = 0, input = 0, output = 0;
  double sharing = 0;
  std::vector<double> timestamps;
  std::int64_t first_input = 0;
};

// The trace read here independently: totals, and the sharing a radix cache sees with 512-token
// blocks — a request's blocks are cached up to the first one whose path (hash ids so far) no
// earlier request sent, a shorter earlier copy of a block caching that many of its tokens.
TraceFacts facts_of_trace() {
  TraceFacts f;
  std::map<std::vector<std::int64_t>, std::int64_t> seen;
  double cached = 0;
  for (const auto& line : util::split(util::trim(util::read_file(k_trace).value_or("")), '\n')) {
    const auto o = json::parse(line).as_object();
    const std::int64_t in = o.at("input_length").as_int64();
    if (f.requests == 0) f.first_input = in;
    f.input += in;
    f.output += o.at("output_length").as_int64();
    f.timestamps.push_back(o.at("timestamp").to_number<double>());
    ++f.requests;
    std::vector<std::int64_t> path;
    std::int64_t left = in;
    bool hit = true;
    for (const auto& id : o.at("hash_ids").as_array()) {
      if (left <= 0) break;
      const std::int64_t take = std::min<std::int64_t>(512, left);
      left -= take;
      path.push_back(id.as_int64());
      std::int64_t& most = seen[path];
      if (hit) cached += static_cast<double>(std::min(most, take));
      hit = hit && most >= take;
      most = std::max(most, take);
    }
  }
  f.sharing = cached / static_cast<double>(f.input);
  return f;
}

TEST(TraceReplay, BenchSendsTheTraceAtItsTimesWithExactTokensAndItsSharing) {
  const TraceFacts t = facts_of_trace();
  ASSERT_EQ(t.requests, 24);
  const auto dir = bench_temp_dir("trace_replay");
  ChildProcess sim(testing::servebench_argv({"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--port", "0",
                                             "--sim-time-scale", "1"}),
                   {{}, dir / "sim_stdout.txt", dir / "sim_stderr.txt"});
  const std::string url = sim.wait_for_line("servebench serve-sim listening on ", 60s).value_or("");
  ASSERT_FALSE(url.empty()) << sim.stderr_text();
  // The simulator in real time, so the per-request records' times are wall-clock times; trace time
  // scale 0.5: the trace's 5 s in 2.5 s; no warmup, so the counter window holds the trace alone.
  const Finished r = run_servebench({"bench", "--base-url", url, "--backend", "sglang-oai", "--no-progress",
                                     "--max-client-lag", "100", "--flush-cache", "--warmup-requests", "0",
                                     "--dataset-name", "trace", "--dataset-path", k_trace.string(),
                                     "--trace-time-scale", "0.5", "--output-file", (dir / "out.jsonl").string(),
                                     "--per-request", (dir / "requests.jsonl").string()},
                                    dir, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto line = util::parse_json(util::trim(util::read_file(dir / "out.jsonl").value_or("")), "out");
  ASSERT_TRUE(line && line->is_object());
  const auto& o = line->as_object();
  EXPECT_EQ(util::json_int(o, "completed"), 24);
  EXPECT_EQ(util::json_int(o, "total_input_tokens"), t.input);
  EXPECT_EQ(util::json_int(o, "total_output_tokens"), t.output);
  EXPECT_EQ(util::json_int(o, "input_token_mismatches"), 0);
  EXPECT_NEAR(util::json_number(o, "expected_cache_hit_rate").value_or(-1), t.sharing, 1e-9);
  const double hit = util::json_number(o.at("cache").as_object(), "hit_rate").value_or(-1);
  EXPECT_NEAR(hit, t.sharing, 0.02) << r.out;
  // Each request went out at its timestamp × 0.5 (measured from the first one's).
  std::map<std::int64_t, double> sent;
  for (const auto& l : util::split(util::trim(util::read_file(dir / "requests.jsonl").value_or("")), '\n')) {
    const auto rec = json::parse(l).as_object();
    sent[rec.at("i").as_int64()] = rec.at("sent_s").to_number<double>();
  }
  ASSERT_EQ(sent.size(), 24u);
  for (std::int64_t i = 1; i < 24; ++i) {
    const double want = (t.timestamps[static_cast<std::size_t>(i)] - t.timestamps[0]) * 0.5 / 1000.0;
    EXPECT_NEAR(sent[i] - sent[0], want, 0.05) << "request " << i;
  }
}

TEST(TraceReplay, ACampaignTraceScenarioIsVerifiedAgainstTheTracesSharing) {
  const TraceFacts t = facts_of_trace();
  const auto dir = campaign_temp_dir("trace_kind");
  write_text(dir / "c.yaml", "name: replay\n"
                             "protocol: {warmup_requests: 1, client_lag_limit: 1000}\n"
                             "arms:\n"
                             "  - {name: sim, engine: sim, gate: false, ready_timeout_s: 30, launch: \"" + sim_launch("", 0.2) + "\"}\n"
                             "scenarios:\n"
                             "  - {name: mooncake, kind: trace, trace: \"" + k_trace.string() + "\", time_scale: 0.5,\n"
                             "     concurrency: [64]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--no-progress"}, dir, 180s);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto ledger = read_run_ledger(dir / "out");
  const auto latest = ledger.latest();
  ASSERT_EQ(latest.size(), 1u);
  const auto& p = latest.front();
  EXPECT_EQ(p.status, results::PointStatus::ok) << p.reason;
  EXPECT_EQ(p.num_prompts, 24);
  EXPECT_EQ(p.completed, 24);
  EXPECT_EQ(p.prompts.source, "trace");
  // One warmup prompt as long as the first request (no hit) is in the counter window too.
  const auto first = static_cast<double>(t.first_input);
  const double expected = t.sharing * static_cast<double>(t.input) / (static_cast<double>(t.input) + first);
  EXPECT_NEAR(p.extra.at("workload").at("expected_hit_rate").to_number<double>(), expected, 1e-9);
  ASSERT_TRUE(p.cache.hit_rate);
  EXPECT_NEAR(*p.cache.hit_rate, expected, 0.02);
  EXPECT_TRUE(p.cache.verified);
}

}  // namespace
}  // namespace servebench::e2e
