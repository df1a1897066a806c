// bench and a two-arm campaign against serve-sim in each way real servers close keep-alive
// connections (after every response like llama-server, after an idle timeout like uvicorn, after
// N requests like nginx): no request fails, counts are exact.
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "e2e/campaign_process.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {
namespace {

struct Mode {
  std::string name;
  std::vector<std::string> flags;
};

const std::vector<Mode>& modes() {
  static const std::vector<Mode> m{{"close_after_response", {"--sim-close-after-response"}},
                                   {"keepalive_1ms", {"--sim-keepalive-timeout-ms", "1"}},
                                   {"max_requests_2", {"--sim-max-requests-per-connection", "2"}}};
  return m;
}

TEST(ConnectionModes, BenchHasNoFailuresAndExactCounts) {
  for (const Mode& mode : modes()) {
    const auto dir = bench_temp_dir("conn_" + mode.name);
    std::vector<std::string> sim{"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--port", "0",
                                 "--sim-time-scale", "0.2"};
    sim.insert(sim.end(), mode.flags.begin(), mode.flags.end());
    ChildProcess child(testing::servebench_argv(sim), {{}, dir / "child_stdout.txt", dir / "child_stderr.txt"});
    const std::string url = child.wait_for_line("servebench serve-sim listening on ", std::chrono::seconds(60)).value_or("");
    ASSERT_FALSE(url.empty()) << child.stderr_text();
    const Finished r = run_servebench({"bench", "--base-url", url, "--backend", "sglang-oai", "--no-progress",
                                       "--num-prompts", "24", "--max-concurrency", "4", "--random-input-len", "64",
                                       "--random-output-len", "8", "--max-client-lag", "1000", "--output-file",
                                       (dir / "out.jsonl").string()},
                                      dir);
    ASSERT_EQ(r.exit_code, 0) << mode.name << ": " << r.err;
    const std::string text = util::read_file(dir / "out.jsonl").value_or("");
    const auto lines = util::split(util::trim(text), '\n');
    const auto v = util::parse_json(lines.back(), "out.jsonl");
    ASSERT_TRUE(v && v->is_object());
    const auto& o = v->as_object();
    EXPECT_EQ(util::json_int(o, "completed"), 24) << mode.name;
    EXPECT_EQ(util::json_int(o, "failed"), 0) << mode.name;
    EXPECT_EQ(util::json_int(o, "total_output_tokens"), 24 * 8) << mode.name;
    EXPECT_EQ(util::json_int(o, "output_token_mismatches"), 0) << mode.name;
    EXPECT_GE(util::json_int(o, "reconnects").value_or(-1), 0) << mode.name;
  }
}

TEST(ConnectionModes, TwoArmCampaignHasNoFailuresAndExactCounts) {
  for (const Mode& mode : modes()) {
    const auto dir = campaign_temp_dir("conn_" + mode.name);
    const std::string flags = util::join(mode.flags, " ");
    write_text(dir / "c.yaml", "name: conn\nprotocol:\n  num_prompts: \"max(2, c)\"\n  warmup_requests: 1\n"
                               "  client_lag_limit: 1000\n"
                               "arms:\n"
                               "  - {name: a, engine: sim, launch: \"" + sim_launch(flags, 0.2) + "\", ready_timeout_s: 30}\n"
                               "  - {name: b, engine: sim, launch: \"" + sim_launch(flags, 0.2) + "\", ready_timeout_s: 30}\n"
                               "scenarios:\n  - {name: chat, isl: 64, osl: 8, concurrency: [1, 4]}\n");
    const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
    ASSERT_EQ(run.exit_code, 0) << mode.name << ": " << run.out << run.err;
    const auto ledger = read_run_ledger(dir / "out");
    ASSERT_EQ(ledger.latest().size(), 4u) << mode.name;
    for (const auto& p : ledger.latest()) {
      EXPECT_EQ(p.status, results::PointStatus::ok) << mode.name << " " << p.arm << ": " << p.reason;
      EXPECT_EQ(p.completed, p.num_prompts) << mode.name;
    }
  }
}

}  // namespace
}  // namespace servebench::e2e
