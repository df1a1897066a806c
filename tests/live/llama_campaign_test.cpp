// Live tests against a real llama-server (label `live`; llama_server.hpp says when they run):
// TPOT against the server's own per-token time at 1, 4 and 8 concurrent streams, and a campaign
// with two arms (two launches with different settings) under the cold-cache protocol.
#include <gtest/gtest.h>

#include <iostream>

#include "e2e/campaign_process.hpp"
#include "live/llama_server.hpp"
#include "servebench/results/run_layout.hpp"

namespace servebench::live {
namespace {

// The server's own time per generated token over a run, from its counters: generation seconds
// over generation *steps*. llama-server counts every generated token in tokens_predicted_total
// but times only the steps after the first (the first token comes with the prompt's logits:
// its `timings.predicted_per_token_ms` is predicted_ms / (predicted_n - 1)), so each request's
// free first token is taken out, exactly as TPOT = (E2E - TTFT) / (output tokens - 1) does.
double server_ms_per_step(const std::vector<wire::Sample>& before, const std::vector<wire::Sample>& after,
                          int requests) {
  const auto delta = [&](std::string_view name) {
    return wire::sum_metric(after, name).value_or(0) - wire::sum_metric(before, name).value_or(0);
  };
  const double steps = delta("llamacpp:tokens_predicted_total") - requests;
  return steps > 0 ? 1e3 * delta("llamacpp:tokens_predicted_seconds_total") / steps : -1;
}

class LiveTpot : public ::testing::TestWithParam<int> {};

TEST_P(LiveTpot, AgreesWithTheServersOwnPerTokenTime) {
  SKIP_UNLESS_LIVE(env);
  const int c = GetParam();
  LlamaServer s(env, "tpot_c" + std::to_string(c), c);
  ASSERT_TRUE(s.ready()) << s.log();
  const int prompts = 2 * c;
  const auto before = s.metrics();
  const Finished r = s.bench({"--num-prompts", std::to_string(prompts), "--max-concurrency", std::to_string(c),
                              "--random-input-len", "16", "--random-output-len", "64", "--warmup-requests", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto after = s.metrics();
  const auto o = s.result();
  ASSERT_EQ(num(o, "completed"), prompts);
  ASSERT_EQ(num(o, "total_output_tokens"), prompts * 64);
  const double server_ms = server_ms_per_step(before, after, prompts);
  ASSERT_GT(server_ms, 0) << "no generation counted by the server";
  const double tpot_ms = num(o, "mean_tpot_ms");
  std::cout << "C=" << c << ": client mean TPOT " << tpot_ms << " ms, server " << server_ms << " ms per step ("
            << 100 * (tpot_ms / server_ms - 1) << " %)\n";
  // The client sees each token after the server stamped it and wrote it; on loopback that adds
  // about the same delay to the first and the last token, so the two agree within a few percent.
  // On a loaded machine the server's HTTP thread may deliver one of them late: up to 2 ms per
  // request, spread over its 63 steps, is allowed on top.
  EXPECT_NEAR(tpot_ms, server_ms, 0.03 * server_ms + 2.0 / 63) << "client TPOT " << tpot_ms << " ms, server " << server_ms;
}

INSTANTIATE_TEST_SUITE_P(Concurrency, LiveTpot, ::testing::Values(1, 4, 8),
                         [](const auto& info) { return "C" + std::to_string(info.param); });

// Two settings: 2 slots of 1,024 tokens, and llama-server's default slots (4 sharing a unified
// cache of 4,096 tokens, a smaller physical batch), whose KV pool only the launch command reveals.
// The quality gate runs but is not required: the model's weights are random.
TEST(LiveLlamaServer, TwoArmCampaignHasNoFailuresAndVerifiesAColdCache) {
  SKIP_UNLESS_LIVE(env);
  const auto dir = e2e::campaign_temp_dir("live_campaign");
  const auto arm = [&](const std::string& name, int slots, const std::string& extra) {
    return "  - {name: " + name + ", engine: llamacpp, launch: \"" + env.server + " " +
           server_flags(env, dir, slots, extra) + " --port {port}\", ready_timeout_s: 120, gate: {required: false}}\n";
  };
  // client_lag_limit: this test is about the server, so a loaded machine's noise cannot void a point.
  e2e::write_text(dir / "c.yaml", "name: live\nprotocol:\n  num_prompts: \"max(4, 2 * c)\"\n  warmup_requests: 1\n"
                                  "  client_lag_limit: 1000\n"
                                  "arms:\n" + arm("np2", 2, "") + arm("auto_ub64", k_auto_slots, "-ub 64") +
                                  "scenarios:\n  - {name: chat, isl: 32, osl: 16, concurrency: [1, 2]}\n");
  const auto run = e2e::run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto ledger = e2e::read_run_ledger(dir / "out");
  ASSERT_EQ(ledger.latest().size(), 4u);
  for (const auto& p : ledger.latest()) {
    EXPECT_EQ(p.status, results::PointStatus::ok) << p.arm << ": " << p.reason;
    EXPECT_EQ(p.completed, p.num_prompts) << p.arm;
    EXPECT_EQ(p.failed, 0) << p.arm;
    EXPECT_TRUE(p.cache.flushed) << p.arm;
    ASSERT_TRUE(p.cache.hit_rate) << p.arm << ": hit rate unknown";
    EXPECT_TRUE(p.cache.verified) << p.arm << ": hit rate " << *p.cache.hit_rate;
    EXPECT_GT(p.tpot_ms.mean, 0) << p.arm;
    // The gate ran against the real server and, as it should, failed a random-weight model's
    // arithmetic; not required, so the points stand.
    EXPECT_EQ(p.gate.passed, false) << p.arm;
  }
  // The facts each arm recorded, against how it was launched.
  const auto facts = [&](const std::string& arm) {
    return e2e::read_json_file(results::RunLayout(dir / "out").server_facts(arm)).at("facts").as_object();
  };
  const auto np2 = facts("np2"), automatic = facts("auto_ub64");
  EXPECT_EQ(num(np2, "max_running_requests"), 2);
  EXPECT_EQ(num(np2, "context_length"), 1024);
  EXPECT_EQ(num(np2, "kv_pool_tokens"), 2048);
  EXPECT_EQ(num(automatic, "max_running_requests"), 4);
  EXPECT_EQ(num(automatic, "context_length"), 4096);  // each slot may use the whole cache
  EXPECT_EQ(num(automatic, "kv_pool_tokens"), 4096);  // not 4 × 4,096
}

}  // namespace
}  // namespace servebench::live
