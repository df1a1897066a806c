// Ctrl-C during `servebench bench` against serve-sim in real time: the run stops sending, the
// requests in flight get their grace, the result line is written with "interrupted": true and the
// completed requests' metrics, and the exit status is 128 + the signal.
#include <signal.h>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "e2e/serve_sim_process.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/prometheus.hpp"
#include "support/wait_for.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

double finished_requests(http::BlockingClient& client) {
  auto r = client.send({http::Method::get, "/metrics", "", "application/json", {}}, 10s);
  if (!r) return -1;
  return wire::sum_metric(wire::parse_prometheus(r->body), "sglang:num_requests_total").value_or(-1);
}

void interrupt_a_running_bench(int sig, const std::string& name) {
  const auto dir = bench_temp_dir(name);
  // Time scale 1: real pacing, so 40 requests of 200 tokens at C=4 take many seconds.
  ChildProcess sim = start_servebench(
      {"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--port", "0", "--sim-seed", "7", "--log-level", "warning"},
      name + "_sim");
  const std::string url = sim.wait_for_line(k_listening_prefix, 60s).value_or("");
  ASSERT_FALSE(url.empty()) << sim.stderr_text();
  auto client = http::BlockingClient::create(url);
  ASSERT_TRUE(client);
  const auto out = dir / "out.jsonl";
  ChildProcess bench(testing::servebench_argv({"bench", "--base-url", url, "--backend", "sglang-oai", "--no-progress",
                                               "--max-client-lag", "100", "--num-prompts", "40", "--max-concurrency",
                                               "4", "--random-input-len", "64", "--random-output-len", "200",
                                               "--warmup-requests", "1", "--output-file", out.string()}),
                     {dir, dir / "bench.out", dir / "bench.err"});
  // The warmup request and four measured ones have ended: the run is well under way.
  ASSERT_TRUE(testing::wait_until([&] { return finished_requests(**client) >= 5; }, 60s, 20ms))
      << bench.stderr_text();
  const auto signalled = std::chrono::steady_clock::now();
  bench.signal(sig);
  const auto code = bench.wait_exit(30s);
  const auto took = std::chrono::steady_clock::now() - signalled;
  ASSERT_TRUE(code.has_value()) << "bench ended after the signal";
  EXPECT_EQ(*code, 128 + sig) << bench.stderr_text();
  EXPECT_LT(took, 10s) << "2 s of grace, then the result is written";
  EXPECT_NE(bench.stderr_text().find(sig == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM"),
            std::string::npos)
      << bench.stderr_text();
  EXPECT_NE(bench.stdout_text().find("Serving Benchmark Result"), std::string::npos) << "the summary is printed";

  const auto text = util::read_file(out).value_or("");
  const auto lines = util::split(util::trim(text), '\n');
  ASSERT_EQ(lines.size(), 1u) << text;
  auto v = util::parse_json(lines[0], "out.jsonl");
  ASSERT_TRUE(v && v->is_object());
  const json::object& o = v->as_object();
  EXPECT_EQ(o.at("interrupted"), true);
  const auto completed = util::json_int(o, "completed").value_or(-1);
  const auto failed = util::json_int(o, "failed").value_or(-1);
  const auto not_sent = util::json_int(o, "interrupted_not_sent").value_or(-1);
  const auto cut_off = util::json_int(o, "interrupted_cut_off").value_or(-1);
  EXPECT_GE(completed, 4);
  EXPECT_GT(not_sent, 0) << "scheduling stopped";
  EXPECT_EQ(completed + failed + not_sent + cut_off, 40) << "every request is accounted for";
  EXPECT_EQ(util::json_int(o, "total_output_tokens").value_or(-1), completed * 200) << "completed requests only";
  EXPECT_GT(util::json_number(o, "mean_ttft_ms").value_or(0), 0);
  EXPECT_GT(util::json_number(o, "mean_tpot_ms").value_or(0), 0);
}

TEST(BenchInterrupt, SigintWritesTheCompletedRequestsAndExits130) { interrupt_a_running_bench(SIGINT, "sigint"); }

TEST(BenchInterrupt, SigtermWritesTheCompletedRequestsAndExits143) { interrupt_a_running_bench(SIGTERM, "sigterm"); }

}  // namespace
}  // namespace servebench::e2e
