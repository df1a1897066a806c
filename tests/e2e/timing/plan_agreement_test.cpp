// `servebench plan` against the same campaign run live on serve-sim at time scale 1: the same engine
// code, so mean TTFT, TPOT and throughput agree within 2 % (differences can only come from HTTP and
// the client). Real time: it runs alone (RUN_SERIAL), a busy machine would slow the live side.
#include <cmath>
#include <map>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

using results::PointStatus;

TEST(Plan, AgreesWithTheLiveSimulatorWithinTwoPercent) {
  const auto dir = campaign_temp_dir("plan_agree");
  write_text(dir / "c.yaml",
             "name: agree\n"
             "protocol:\n"
             "  num_prompts: \"max(2, c)\"\n"
             "  warmup_requests: 1\n"
             "  client_lag_limit: 10\n"
             "arms:\n"
             "  - name: tp1\n"
             "    engine: sim\n"
             "    launch: \"servebench serve-sim --hw h200 --model llama-3.1-8b --port {port} --sim-time-scale 1 "
             "--sim-step-overhead-us 10000 --sim-mfu 0.1\"\n"
             "    gate: {enabled: false}\n"
             "scenarios:\n"
             "  - {name: s, isl: 8192, osl: 64, concurrency: [1, 4]}\n");
  const auto live = run_servebench({"campaign", "run", "c.yaml", "--out", "live"}, dir, std::chrono::seconds(120), "live");
  ASSERT_EQ(live.exit_code, 0) << live.out << live.err;
  const auto plan = run_servebench({"plan", "c.yaml", "--out", "plan"}, dir, std::chrono::seconds(60), "plan");
  ASSERT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  auto measured = points_by_id(read_run_ledger(dir / "live"));
  auto predicted = points_by_id(read_run_ledger(dir / "plan"));
  ASSERT_EQ(measured.size(), 2u);
  ASSERT_EQ(predicted.size(), 2u);
  const auto close = [](double p, double m) { return std::abs(p - m) <= 0.02 * std::abs(m); };
  for (const auto& [id, m] : measured) {
    const auto& p = predicted.at(id);
    ASSERT_EQ(m.status, PointStatus::ok) << id << ": " << m.reason;
    ASSERT_EQ(p.status, PointStatus::ok) << id << ": " << p.reason;
    EXPECT_TRUE(close(p.ttft_ms.mean, m.ttft_ms.mean)) << id << " TTFT " << p.ttft_ms.mean << " vs " << m.ttft_ms.mean;
    EXPECT_TRUE(close(p.tpot_ms.mean, m.tpot_ms.mean)) << id << " TPOT " << p.tpot_ms.mean << " vs " << m.tpot_ms.mean;
    EXPECT_TRUE(close(p.throughput.output_tok_per_s, m.throughput.output_tok_per_s))
        << id << " tok/s " << p.throughput.output_tok_per_s << " vs " << m.throughput.output_tok_per_s;
  }
}

}  // namespace
}  // namespace servebench::e2e
