// The quality gate on a GSM8K-format file, end to end on serve-sim: the shipped sample is answered
// right (greedy), the accuracy and its Wilson interval land in gate.json, in every ledger record,
// in the report (with the arms compared) and in the cookbook-row export.
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

TEST(GateGsm8k, TheSampleRunsThroughTheGateIntoLedgerReportAndExport) {
  const auto dir = campaign_temp_dir("gate_gsm8k");
  const std::string sample = std::string(SERVEBENCH_SOURCE_DIR) + "/examples/quality/gsm8k-sample.jsonl";
  const std::string gate = "gate: {dataset: \"" + sample + "\", problems: 12}";
  write_text(dir / "c.yaml", "name: quality\n"
                             "protocol: {num_prompts: \"4\", warmup_requests: 1, client_lag_limit: 1000}\n"
                             "arms:\n"
                             "  - {name: plain, engine: sim, " + gate + ", launch: \"" + sim_launch() + "\"}\n"
                             "  - {name: spec, engine: sim, " + gate + ", launch: \"" +
                                 sim_launch("--speculative-algorithm EAGLE3 --speculative-num-steps 3 "
                                            "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4") + "\"}\n"
                             "scenarios:\n"
                             "  - {name: s, isl: 32, osl: 8, concurrency: [1]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--no-progress"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  for (const char* arm : {"plain", "spec"}) {
    const auto g = read_json_file(dir / "out/arms" / arm / "gate.json");
    const auto& probe = g.at("probes").as_array().at(0).as_object();
    EXPECT_EQ(probe.at("name"), "gsm8k") << arm;
    EXPECT_EQ(probe.at("correct"), 12) << arm;
    EXPECT_EQ(probe.at("dataset"), "gsm8k-sample.jsonl");
    EXPECT_TRUE(g.at("probes").as_array().at(1).at("identical").as_bool()) << "greedy outputs must not change";
  }
  const auto ledger = read_run_ledger(dir / "out");
  ASSERT_EQ(ledger.latest().size(), 2u);
  for (const auto& r : ledger.latest()) {
    ASSERT_TRUE(r.extra.contains("quality")) << r.arm;
    const auto& q = r.extra.at("quality").as_object();
    EXPECT_EQ(q.at("accuracy").to_number<double>(), 1.0);
    EXPECT_LT(q.at("wilson_low").to_number<double>(), 1.0);
    EXPECT_EQ(q.at("n"), 12);
  }
  const auto report = run_servebench({"report", "out", "--format", "md,json"}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string md = util::read_file(dir / "out/report.md").value_or("");
  EXPECT_NE(md.find("gsm8k 12/12 passed (accuracy 1.00, 95% Wilson 0.76–1.00)"), std::string::npos) << md;
  EXPECT_NE(md.find("spec: 12/12 = 1.00 (95% Wilson 0.76–1.00) on gsm8k-sample.jsonl — within noise of plain"),
            std::string::npos)
      << md;
  const std::string rows = util::read_file(dir / "out/report.cookbook.json").value_or("");
  auto parsed = util::parse_json(rows, "cookbook");
  ASSERT_TRUE(parsed && parsed->is_array() && !parsed->as_array().empty()) << rows;
  for (const auto& row : parsed->as_array()) {
    EXPECT_EQ(row.at("accuracy").at("gsm8k_pct").to_number<double>(), 100.0) << rows;
  }
}

}  // namespace
}  // namespace servebench::e2e
