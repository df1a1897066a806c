// `servebench bench` end to end against a small in-process streaming server (tests/unit/load/
// fake_server.hpp) that can also fail on purpose: exact counts, every sglang key, failures by kind,
// exit codes, the open-loop schedule and percentiles recomputed from the per-request log.
#include <algorithm>
#include <cmath>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"
#include "unit/load/fake_server.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;

json::object last_json_line(const std::filesystem::path& path) {
  const std::string text = util::read_file(path).value_or("");
  const auto lines = util::split(util::trim(text), '\n');
  auto v = util::parse_json(lines.back(), path.string());
  EXPECT_TRUE(v && v->is_object());
  return v && v->is_object() ? v->as_object() : json::object{};
}

std::vector<json::object> json_lines(const std::filesystem::path& path) {
  std::vector<json::object> out;
  const std::string text = util::read_file(path).value_or("");
  for (auto line : util::split(util::trim(text), '\n')) {
    auto v = util::parse_json(line, path.string());
    if (v && v->is_object()) out.push_back(v->as_object());
  }
  return out;
}

double number(const json::object& o, std::string_view key) {
  const auto v = util::json_number(o, key);
  EXPECT_TRUE(v.has_value()) << key;
  return v.value_or(std::nan(""));
}

std::vector<std::string> common_args(const load::testing::FakeServer& server, const std::filesystem::path& dir) {
  return {"bench", "--backend", "vllm", "--base-url", server.base_url(), "--no-progress",
          "--output-file", (dir / "out.jsonl").string(), "--per-request", (dir / "requests.jsonl").string()};
}

TEST(BenchFakeServer, ExactTokenCountsAndEverySglangKey) {
  load::testing::FakeServer server;
  const auto dir = bench_temp_dir("exact");
  auto args = common_args(server, dir);
  args.insert(args.end(), {"--num-prompts", "8", "--max-concurrency", "2", "--random-input-len", "32",
                           "--random-output-len", "4", "--goodput", "ttft:60000"});
  const Finished r = run_servebench(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Successful requests:                     8"), std::string::npos) << r.out;
  const json::object o = last_json_line(dir / "out.jsonl");
  for (const char* k : {"completed", "total_input_tokens", "total_output_tokens", "request_throughput",
                        "output_throughput", "total_throughput", "mean_ttft_ms", "median_tpot_ms", "p99_itl_ms",
                        "std_e2e_latency_ms", "concurrency", "accept_length", "max_output_tokens_per_s",
                        "max_concurrent_requests", "schema", "percentile_method", "definitions", "failed",
                        "errors_by_kind", "client", "cache", "server_facts"}) {
    EXPECT_TRUE(o.contains(k)) << k;
  }
  EXPECT_EQ(number(o, "completed"), 8);
  EXPECT_EQ(number(o, "total_input_tokens"), 8 * 32);  // the server's own prompt count
  EXPECT_EQ(number(o, "total_output_tokens"), 8 * 4);
  EXPECT_EQ(number(o, "output_token_mismatches"), 0);
  EXPECT_EQ(number(o, "input_token_mismatches"), 0);
  EXPECT_EQ(o.at("goodput").as_object().at("good_requests").as_int64(), 8);
  EXPECT_EQ(server.requests(), 9);  // one warmup request
  EXPECT_LE(server.max_in_flight(), 2);
  EXPECT_EQ(json_lines(dir / "requests.jsonl").size(), 8u);
}

TEST(BenchFakeServer, FailuresAreCountedByKindAndExitOne) {
  load::testing::FakeServer server;
  const auto dir = bench_temp_dir("faulty");
  auto args = common_args(server, dir);
  args.insert(args.end(), {"--model", "mixed", "--dataset-name", "custom", "--dataset-path",
                           std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/load/faulty.jsonl", "--num-prompts",
                           "6", "--warmup-requests", "0", "--request-timeout", "0.5"});
  const Finished r = run_servebench(args, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("4 of 6 requests failed"), std::string::npos) << r.err;
  const json::object o = last_json_line(dir / "out.jsonl");
  EXPECT_EQ(number(o, "completed"), 2);
  EXPECT_EQ(number(o, "failed"), 4);
  const auto& kinds = o.at("errors_by_kind").as_object();
  for (const char* k : {"http_status", "reset", "malformed", "timeout"}) {
    ASSERT_TRUE(kinds.contains(k)) << k;
    EXPECT_EQ(kinds.at(k).as_int64(), 1) << k;
  }
  args.push_back("--allow-failures");
  EXPECT_EQ(run_servebench(args, dir).exit_code, 0);
}

TEST(BenchFakeServer, GoodputCountsOnlyRequestsWithinTheSlo) {
  load::testing::FakeServer server;
  const auto dir = bench_temp_dir("goodput");
  auto args = common_args(server, dir);
  args.insert(args.end(), {"--num-prompts", "4", "--random-input-len", "8", "--random-output-len", "3",
                           "--goodput", "e2e:0.0001", "--output-format", "vllm"});
  const Finished r = run_servebench(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json::object o = last_json_line(dir / "out.jsonl");
  EXPECT_EQ(o.at("goodput").as_object().at("good_requests").as_int64(), 0);  // nothing ends within 0.1 µs
  EXPECT_EQ(number(o, "request_goodput"), 0.0);
  EXPECT_TRUE(o.contains("p99_e2el_ms"));  // vLLM's spelling
}

TEST(BenchFakeServer, OpenLoopScheduleIsPoissonAndSentOnTime) {
  load::testing::FakeServer server;
  const auto dir = bench_temp_dir("poisson");
  auto args = common_args(server, dir);
  const double rate = 400;
  args.insert(args.end(), {"--num-prompts", "600", "--request-rate", "400", "--random-input-len", "8",
                           "--random-output-len", "2", "--seed", "7", "--warmup-requests", "0"});
  const Finished r = run_servebench(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto requests = json_lines(dir / "requests.jsonl");
  ASSERT_EQ(requests.size(), 600u);
  const json::object o = last_json_line(dir / "out.jsonl");
  // The machine's own wake-up delay (p99, measured in the same run) is not the client's.
  const double floor_s = number(o.at("client").as_object(), "measured_floor_ms") / 1000;
  std::vector<double> intended;
  std::size_t late = 0;
  for (const auto& q : requests) {
    intended.push_back(number(q, "intended_s"));
    if (number(q, "sent_s") - intended.back() > 0.005 + floor_s) ++late;
  }
  EXPECT_LE(late, 30u) << "floor " << floor_s;  // ≤ 5 % sent more than 5 ms late beyond the noise floor
  std::sort(intended.begin(), intended.end());
  std::vector<double> gaps;
  for (std::size_t i = 1; i < intended.size(); ++i) gaps.push_back(intended[i] - intended[i - 1]);
  std::sort(gaps.begin(), gaps.end());
  // Kolmogorov–Smirnov against Exp(rate) at alpha = 0.01.
  const double n = static_cast<double>(gaps.size());
  double d = 0;
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    const double cdf = 1 - std::exp(-rate * gaps[i]);
    d = std::max({d, cdf - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - cdf});
  }
  EXPECT_LT(d, 1.63 / std::sqrt(n));
  EXPECT_TRUE(o.contains("median_ttft_from_intended_ms"));
  EXPECT_EQ(number(o, "request_rate"), rate);
}

TEST(BenchFakeServer, PercentilesAreNearestRankOfThePerRequestValues) {
  load::testing::FakeServer server(std::chrono::microseconds(300));
  const auto dir = bench_temp_dir("percentiles");
  auto args = common_args(server, dir);
  // The client-health gate is not under test here: a loaded machine must not fail it.
  args.insert(args.end(), {"--num-prompts", "23", "--max-concurrency", "5", "--random-input-len", "8",
                           "--random-output-len", "6", "--max-client-lag", "1000"});
  const Finished r = run_servebench(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<double> ttft, e2e;
  for (const auto& q : json_lines(dir / "requests.jsonl")) {
    ttft.push_back(number(q, "ttft_ms"));
    e2e.push_back(number(q, "e2e_ms"));
  }
  ASSERT_EQ(ttft.size(), 23u);
  std::sort(ttft.begin(), ttft.end());
  std::sort(e2e.begin(), e2e.end());
  // Nearest rank over 23 values: p90 -> rank ceil(20.7) = 21, p95 -> 22, p99 -> 23, median -> 12.
  const json::object o = last_json_line(dir / "out.jsonl");
  EXPECT_NEAR(number(o, "p90_ttft_ms"), ttft[20], 1e-9);
  EXPECT_NEAR(number(o, "p95_ttft_ms"), ttft[21], 1e-9);
  EXPECT_NEAR(number(o, "p99_ttft_ms"), ttft[22], 1e-9);
  EXPECT_NEAR(number(o, "median_e2e_latency_ms"), e2e[11], 1e-9);
}

TEST(BenchFakeServer, AnUnhealthyClientMakesTheRunInvalid) {
  // Tokens 10 ms apart; the client is made to burn 20 ms of CPU after every socket read, so every
  // chunk is recorded ≥ 20 ms after it arrived: far above 10 % of the TPOT and the noise floor of a
  // loaded machine, and the loops saturate (either reason makes the run invalid).
  load::testing::FakeServer server(std::chrono::milliseconds(10));
  const auto dir = bench_temp_dir("unhealthy");
  auto args = common_args(server, dir);
  args.insert(args.end(), {"--num-prompts", "4", "--random-input-len", "8", "--random-output-len", "8",
                           "--threads", "2", "--plant-client-burn-us", "20000"});
  const Finished r = run_servebench(args, dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("run invalid: "), std::string::npos) << r.err;
  const json::object o = last_json_line(dir / "out.jsonl");
  const auto& client = o.at("client").as_object();
  EXPECT_FALSE(client.at("healthy").as_bool());
  EXPECT_GE(number(client, "gated_read_lag_ms"), 19.0);
  EXPECT_EQ(number(o, "failed"), 0);
}

TEST(BenchFakeServer, AMicrosecondServerIsJudgedAgainstTheNoiseFloor) {
  // Chunks microseconds apart: 10 % of such a TPOT is below what an event loop can resolve, so the
  // limit is the machine's noise floor (measured during the run, at least 0.05 ms).
  load::testing::FakeServer server;
  const auto dir = bench_temp_dir("floor");
  auto args = common_args(server, dir);
  args.insert(args.end(), {"--num-prompts", "16", "--max-concurrency", "2", "--random-input-len", "8",
                           "--random-output-len", "8"});
  const Finished r = run_servebench(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json::object o = last_json_line(dir / "out.jsonl");
  const auto& client = o.at("client").as_object();
  EXPECT_TRUE(client.at("healthy").as_bool()) << util::json_string(client, "reason").value_or("");
  EXPECT_GE(number(client, "noise_floor_ms"), 0.05);
  EXPECT_GE(number(client, "noise_floor_ms"), number(client, "measured_floor_ms"));
}

TEST(BenchCli, AnUnwritableOutputPathFailsBeforeTheFirstRequest) {
  load::testing::FakeServer server;
  const auto dir = bench_temp_dir("unwritable");
  const Finished r = run_servebench({"bench", "--backend", "vllm", "--base-url", server.base_url(), "--no-progress",
                                     "--num-prompts", "2", "--output-file", (dir / "no/such/dir/out.jsonl").string()},
                                    dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--output-file"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests(), 0);
}

TEST(BenchCli, UnreachableServerExitsThreeNamingTheUrl) {
  std::string url;
  {
    load::testing::FakeServer gone;
    url = gone.base_url();
  }
  const auto dir = bench_temp_dir("unreachable");
  const Finished r = run_servebench({"bench", "--base-url", url, "--num-prompts", "1"}, dir);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(url.substr(7)), std::string::npos) << r.err;  // host:port
}

TEST(BenchCli, BadFlagsExitTwoNamingTheFlag) {
  const auto dir = bench_temp_dir("flags");
  for (const auto& [args, flag] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"bench", "--num-prompts", "0"}, "--num-prompts"},
           {{"bench", "--request-rate", "fast"}, "--request-rate"},
           {{"bench", "--request-rate", "-1"}, "--request-rate"},
           {{"bench", "--max-concurrency", "1000000000"}, "--max-concurrency must be at most 100000"},
           {{"bench", "--backend", "tgi"}, "tgi"},
           {{"bench", "--goodput", "itl:5"}, "--goodput"},
           {{"bench", "--percentile-method", "median"}, "percentile method"},
           {{"bench", "--burstiness", "0.5"}, "--burstiness"},
           {{"bench", "--base-url", "http://127.0.0.1:1", "--port", "2"}, "--base-url"},
       }) {
    const Finished r = run_servebench(args, dir);
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace servebench::e2e
