// `serve-sim --sim-fault` end to end: bench counts each injected fault under the right reason (the
// expected count comes from the same seeded choice the simulator makes), and a campaign survives
// every kind — the point fails with the reason, a crashed server is relaunched, the rest of the
// matrix runs, and the report shows the failures.
#include <map>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "e2e/campaign_process.hpp"
#include "servebench/sim/fault_injection.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;
constexpr std::uint64_t k_seed = 7;
constexpr int k_requests = 24;

struct FaultySim {
  std::filesystem::path dir;
  ChildProcess child;
  std::string url;

  FaultySim(const std::string& name, const std::vector<std::string>& faults)
      : dir(bench_temp_dir("fault_" + name)), child(testing::servebench_argv(args(faults)),
                                                    {{}, dir / "child_stdout.txt", dir / "child_stderr.txt"}) {
    url = child.wait_for_line("servebench serve-sim listening on ", std::chrono::seconds(60)).value_or("");
    EXPECT_FALSE(url.empty()) << child.stderr_text();
  }
  static std::vector<std::string> args(const std::vector<std::string>& faults) {
    std::vector<std::string> a{"serve-sim", "--hw",       "h200", "--model",     "llama-3.1-8b",         "--port", "0",
                               "--sim-seed", std::to_string(k_seed), "--sim-time-scale", "0", "--log-level", "warning"};
    for (const auto& f : faults) a.insert(a.end(), {"--sim-fault", f});
    return a;
  }
  Finished bench(const std::vector<std::string>& extra = {}, int prompts = k_requests, int concurrency = 4) {
    std::vector<std::string> a{"bench", "--base-url", url, "--backend", "sglang-oai", "--no-progress",
                               "--max-client-lag", "100", "--warmup-requests", "0", "--num-prompts",
                               std::to_string(prompts), "--max-concurrency", std::to_string(concurrency),
                               "--random-input-len", "64",
                               "--random-output-len", "16", "--output-file", (dir / "out.jsonl").string()};
    a.insert(a.end(), extra.begin(), extra.end());
    return run_servebench(a, dir);
  }
  json::object result() const {
    const std::string text = util::read_file(dir / "out.jsonl").value_or("");  // the lines view it
    const auto lines = util::split(util::trim(text), '\n');
    auto v = util::parse_json(lines.back(), "out.jsonl");
    return v && v->is_object() ? v->as_object() : json::object{};
  }
};

std::int64_t errors(const json::object& o, const char* kind) {
  const auto* kinds = o.if_contains("errors_by_kind");
  if (kinds == nullptr || !kinds->is_object()) return -1;
  const auto* k = kinds->as_object().if_contains(kind);
  return k != nullptr && k->is_number() ? k->to_number<std::int64_t>() : 0;
}

std::uint64_t expected(const std::string& fault, sim::FaultKind kind) {
  const auto plan = sim::parse_fault_plan({fault}, k_seed);
  EXPECT_TRUE(plan);
  return sim::fault_count(plan.value_or(sim::FaultPlan{}), kind, k_requests);
}

void expect_counted(const std::string& fault, sim::FaultKind kind, const char* reason,
                    const std::vector<std::string>& bench_extra = {}) {
  FaultySim sim(std::string(sim::to_string(kind)) + "_" + reason, {fault});
  ASSERT_FALSE(sim.url.empty());
  const auto want = static_cast<std::int64_t>(expected(fault, kind));
  ASSERT_GT(want, 0) << "the seed picks some requests";
  ASSERT_LT(want, k_requests) << "and spares some";
  const Finished r = sim.bench(bench_extra);
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  const json::object o = sim.result();
  EXPECT_EQ(errors(o, reason), want) << json::serialize(o.at("errors_by_kind"));
  EXPECT_EQ(util::json_number(o, "failed").value_or(-1), want);
  EXPECT_EQ(util::json_number(o, "completed").value_or(-1), k_requests - want);
}

TEST(ServeSimFault, Http5xxIsCountedAsHttpStatus) {
  expect_counted("http-5xx:0.3", sim::FaultKind::http_5xx, "http_status");
}

TEST(ServeSimFault, DisconnectMidStreamIsCountedAsReset) {
  expect_counted("disconnect-mid-stream:0.3", sim::FaultKind::disconnect_mid_stream, "reset");
}

TEST(ServeSimFault, MalformedChunkIsCountedAsMalformed) {
  expect_counted("malformed-chunk:0.3", sim::FaultKind::malformed_chunk, "malformed");
}

TEST(ServeSimFault, AStallLongerThanTheRequestTimeoutIsCountedAsTimeout) {
  expect_counted("stall:0.3:30", sim::FaultKind::stall, "timeout", {"--request-timeout", "1"});
}

// No whole-request limit (the default): a server that goes silent mid-stream is `stalled` after
// --stall-timeout, and every other request completes.
TEST(ServeSimFault, ASilenceLongerThanTheStallTimeoutIsCountedAsStalled) {
  expect_counted("stall:0.3:30", sim::FaultKind::stall, "stalled", {"--stall-timeout", "1"});
}

TEST(ServeSimFault, SlowHeadersDelayEveryFirstTokenButFailNothing) {
  FaultySim sim("slow", {"slow-headers:200"});
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench({}, 4);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json::object o = sim.result();
  EXPECT_EQ(util::json_number(o, "completed").value_or(-1), 4);
  EXPECT_GE(util::json_number(o, "mean_ttft_ms").value_or(0), 200);
}

TEST(ServeSimFault, CrashAfterNRequestsEndsTheProcessAndTheRestFailAsUnreachable) {
  FaultySim sim("crash", {"crash-after:5"});
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench({}, k_requests, 1);
  EXPECT_NE(r.exit_code, 0) << r.err;
  const auto code = sim.child.wait_exit(std::chrono::seconds(10));
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 70);
  EXPECT_NE(sim.child.stderr_text().find("crash-after:5: request 6 arrived"), std::string::npos);
  if (std::filesystem::exists(sim.dir / "out.jsonl")) {
    const json::object o = sim.result();
    EXPECT_EQ(util::json_number(o, "completed").value_or(-1), 5);
    EXPECT_EQ(errors(o, "reset") + errors(o, "connect_refused"), k_requests - 5) << json::serialize(o);
  } else {
    EXPECT_NE(r.err.find("127.0.0.1"), std::string::npos) << "an unreachable server is named: " << r.err;
  }
}

TEST(ServeSimFault, BadFaultValuesExitTwoNamingTheValue) {
  const Finished r = run_servebench({"serve-sim", "--port", "0", "--sim-fault", "stall:2:1"}, bench_temp_dir("fault_bad"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--sim-fault stall:2:1: the rate must be a number in [0, 1]"), std::string::npos) << r.err;
}

TEST(ServeSimFault, ACampaignSurvivesEveryKindOfFault) {
  const auto dir = campaign_temp_dir("faults");
  const auto arm = [](const std::string& name, const std::string& fault) {
    return "  - {name: " + name + ", engine: sim, gate: false, launch: \"" + sim_launch("--sim-fault " + fault) + "\"}\n";
  };
  write_text(dir / "c.yaml",
             "name: faults\nprotocol: {num_prompts: '2', warmup_requests: 0, retries: 0, client_lag_limit: 1000, "
             "request: {timeout_s: 1}}\n"
             "arms:\n" + arm("fivexx", "http-5xx:1") + arm("cut", "disconnect-mid-stream:1") +
                 arm("garbled", "malformed-chunk:1") + arm("stalls", "stall:1:30") + arm("slow", "slow-headers:50") +
                 arm("crashy", "crash-after:3") +
                 "scenarios: [{name: s, isl: 64, osl: 16, concurrency: [1, 2, 4]}]\n");
  ChildProcess p = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "faults");
  const auto code = p.wait_exit(std::chrono::seconds(240));
  ASSERT_TRUE(code.has_value()) << "the campaign finished";
  EXPECT_EQ(*code, 1) << p.stdout_text() << p.stderr_text();
  const auto points = points_by_id(read_run_ledger(dir / "out"));
  ASSERT_EQ(points.size(), 18u) << p.stdout_text();
  const std::map<std::string, std::string> reasons{
      {"fivexx", "http_status 2"}, {"cut", "reset 2"}, {"garbled", "malformed 2"}, {"stalls", "timeout 2"}};
  for (const auto& [name, reason] : reasons) {
    for (const char* c : {"c1", "c2", "c4"}) {
      const auto& point = points.at(name + "/s/" + c);
      EXPECT_EQ(point.status, results::PointStatus::failed) << name << c;
      EXPECT_NE(point.reason.find(reason), std::string::npos) << name << c << ": " << point.reason;
    }
  }
  for (const char* c : {"c1", "c2", "c4"}) {
    const auto& slow = points.at(std::string("slow/s/") + c);
    EXPECT_EQ(slow.status, results::PointStatus::ok) << c << ": " << slow.reason;
  }
  EXPECT_EQ(points.at("crashy/s/c1").status, results::PointStatus::ok);
  EXPECT_EQ(points.at("crashy/s/c2").status, results::PointStatus::failed) << "request 4 crashed the server";
  EXPECT_EQ(points.at("crashy/s/c4").status, results::PointStatus::ok) << "relaunched: " << points.at("crashy/s/c4").reason;
  EXPECT_NE(p.stdout_text().find("arm crashy: relaunching the server"), std::string::npos) << p.stdout_text();
  const Finished report = run_servebench({"report", (dir / "out").string()}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = util::read_file(dir / "out" / "report.md").value_or("");
  for (const char* text : {"http_status 2", "reset 2", "malformed 2", "timeout 2"}) {
    EXPECT_NE(md.find(text), std::string::npos) << "the report shows the failure: " << text;
  }
}

}  // namespace
}  // namespace servebench::e2e
