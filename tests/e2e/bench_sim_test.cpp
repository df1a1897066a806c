// `servebench bench` end to end against `servebench serve-sim` (a real child process on an
// ephemeral port): exact token counts, cache facts, native meta, stamped chunks, and the
// simulator's bad-input behaviour as failures by kind.
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "e2e/sim_child.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

namespace json = boost::json;

// A simulator in real time (time scale 1) for a small model on a fast card: TPOT of a few ms.
struct Sim {
  std::filesystem::path dir;
  ChildProcess child;
  std::string url;

  Sim(const std::string& name, std::vector<std::string> extra)
      : dir(bench_temp_dir(name)),
        child(testing::servebench_argv(sim_args(std::move(extra))), {{}, dir / "child_stdout.txt", dir / "child_stderr.txt"}) {
    url = child.wait_for_line("servebench serve-sim listening on ", std::chrono::seconds(60)).value_or("");
    EXPECT_FALSE(url.empty()) << child.stderr_text();
  }
  static std::vector<std::string> sim_args(std::vector<std::string> extra) {
    std::vector<std::string> a{"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--port", "0"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
  // bench against this simulator; the client-health gate is relaxed (not under test here).
  Finished bench(std::vector<std::string> extra) {
    std::vector<std::string> a{"bench", "--base-url", url, "--no-progress", "--max-client-lag", "100",
                               "--output-file", (dir / "out.jsonl").string(), "--per-request",
                               (dir / "requests.jsonl").string()};
    a.insert(a.end(), extra.begin(), extra.end());
    return run_servebench(a, dir);
  }
  json::object result() const {
    const std::string text = util::read_file(dir / "out.jsonl").value_or("");
    const auto lines = util::split(util::trim(text), '\n');
    auto v = util::parse_json(lines.back(), "out.jsonl");
    return v && v->is_object() ? v->as_object() : json::object{};
  }
};


TEST(BenchSim, ExactTokenCountsAndAColdCache) {
  Sim sim("sim_exact", {});
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench({"--backend", "sglang-oai", "--num-prompts", "16", "--max-concurrency", "4",
                              "--random-input-len", "128", "--random-output-len", "32", "--flush-cache"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json::object o = sim.result();
  EXPECT_EQ(number_of(o, "completed"), 16);
  EXPECT_EQ(number_of(o, "total_input_tokens"), 16 * 128);
  EXPECT_EQ(number_of(o, "total_output_tokens"), 16 * 32);
  EXPECT_EQ(number_of(o, "output_token_mismatches"), 0);
  EXPECT_EQ(number_of(o, "input_token_mismatches"), 0);
  const auto& cache = o.at("cache").as_object();
  EXPECT_TRUE(cache.at("flushed").as_bool());
  ASSERT_FALSE(cache.at("hit_rate").is_null());
  EXPECT_LE(util::json_number(cache, "hit_rate").value_or(1), 0.01);  // no prompt shares a prefix
  EXPECT_TRUE(o.at("server_info").is_object());
  EXPECT_GT(number_of(o, "median_tpot_ms"), 0);
}

TEST(BenchSim, NativeGenerateGivesAcceptLengthFromMeta) {
  Sim sim("sim_native", {"--speculative-algorithm", "EAGLE", "--speculative-num-steps", "3",
                         "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4"});
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench({"--backend", "sglang", "--num-prompts", "8", "--max-concurrency", "4",
                              "--random-input-len", "64", "--random-output-len", "48"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json::object o = sim.result();
  EXPECT_EQ(number_of(o, "total_output_tokens"), 8 * 48);
  EXPECT_EQ(o.at("accept_length_source"), "native_meta");
  EXPECT_GT(number_of(o, "accept_length"), 1.0);
  EXPECT_LE(number_of(o, "accept_length"), 4.0);
  EXPECT_NE(r.out.find("Accept length:"), std::string::npos);
}

// The OpenAI routes carry no meta_info: the accept length is what the server reports.
TEST(BenchSim, OpenAiRoutesGetTheServerReportedAcceptLength) {
  Sim sim("sim_oai_spec", {"--speculative-algorithm", "EAGLE", "--speculative-num-steps", "3",
                           "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "4"});
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench({"--backend", "sglang-oai", "--num-prompts", "8", "--max-concurrency", "4",
                              "--random-input-len", "64", "--random-output-len", "48"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json::object o = sim.result();
  EXPECT_EQ(o.at("accept_length_source"), "server_reported");
  EXPECT_GT(number_of(o, "accept_length"), 1.0);
  EXPECT_LE(number_of(o, "accept_length"), 4.0);
  EXPECT_NE(r.out.find("Accept length:"), std::string::npos);
}

TEST(BenchSim, StampedEventsGiveClientAddedLatency) {
  Sim sim("sim_stamps", {"--sim-stamp-events"});
  ASSERT_FALSE(sim.url.empty());
  const Finished r = sim.bench({"--backend", "sglang-oai", "--num-prompts", "8", "--max-concurrency", "8",
                              "--random-input-len", "32", "--random-output-len", "16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json::object o = sim.result();
  const auto& client = o.at("client").as_object();
  EXPECT_GE(number_of(client, "stamped_chunks"), 8 * 16);
  EXPECT_GT(number_of(client, "added_latency_p50_ms"), 0);
}

TEST(BenchSim, BadInputBecomesHttpStatusFailures) {
  Sim sim("sim_bad", {"--context-length", "256"});
  ASSERT_FALSE(sim.url.empty());
  // 300 input tokens cannot fit a 256-token context: the simulator answers 400 to each.
  const Finished r = sim.bench({"--backend", "sglang-oai", "--num-prompts", "3", "--warmup-requests", "0",
                              "--random-input-len", "300", "--random-output-len", "8"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json::object o = sim.result();
  EXPECT_EQ(number_of(o, "completed"), 0);
  EXPECT_EQ(o.at("errors_by_kind").as_object().at("http_status").as_int64(), 3);
}

}  // namespace
}  // namespace servebench::e2e
