// A prefill/decode-disaggregated arm on serve-sim, end to end: the campaign launches the prefill and
// decode parts and the router, measures through the router, records every part's facts, and the
// report shows the KV transfer. Its TTFT exceeds the same deployment's without the transfer (the
// decode part's `fake` backend moves nothing) by about the modelled transfer time.
#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"
#include "servebench/results/server_facts_file.hpp"

namespace servebench::e2e {
namespace {

std::string pd_part_launch(const std::string& mode, const std::string& extra = "") {
  return "servebench serve-sim --hw h200 --model llama-3.1-8b --disaggregation-mode " + mode +
         " --sim-time-scale 0.5 --log-level warning --port {port}" + (extra.empty() ? "" : " " + extra);
}

std::string pd_arm_yaml(const std::string& name, const std::string& decode_extra) {
  return "  - name: " + name + "\n"
         "    engine: sim\n"
         "    gate: false\n"
         "    ready_timeout_s: 30\n"
         "    prefill: \"" + pd_part_launch("prefill") + "\"\n"
         "    decode: \"" + pd_part_launch("decode", decode_extra) + "\"\n"
         "    router: \"servebench serve-sim --router --prefill {prefill_url} --decode {decode_url} --port {port}\"\n";
}

TEST(CampaignPd, DisaggregatedArmsTtftIncludesTheModelledKvTransfer) {
  const auto dir = campaign_temp_dir("pd");
  write_text(dir / "c.yaml", "name: e2e-pd\n"
                             "protocol: {num_prompts: \"6\", warmup_requests: 1, client_lag_limit: 1000}\n"
                             "arms:\n" +
                                 pd_arm_yaml("pd", "") + pd_arm_yaml("pd-no-transfer", "--disaggregation-transfer-backend fake") +
                                 "scenarios:\n"
                                 "  - {name: long, isl: 16384, osl: 8, concurrency: [1]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--no-progress"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto points = points_by_id(read_run_ledger(dir / "out"));
  ASSERT_EQ(points.size(), 2u);
  for (const auto& [id, r] : points) {
    EXPECT_EQ(r.status, results::PointStatus::ok) << id << ": " << r.reason;
    EXPECT_EQ(r.completed, 6) << id;
  }
  // The modelled transfer of a 16,384-token prompt, as the router's facts report it.
  const auto facts = results::read_server_facts(dir / "out/arms/pd/server_facts.json");
  ASSERT_TRUE(facts && *facts && (*facts)->facts && (*facts)->facts->disaggregation);
  const auto& pd = *(*facts)->facts->disaggregation;
  EXPECT_EQ(pd.mode, "router");
  ASSERT_EQ((*facts)->parts.size(), 3u);
  EXPECT_EQ((*facts)->parts[1].facts->disaggregation->mode, "decode");
  ASSERT_TRUE(pd.kv_transfer && pd.kv_transfer->time_ms(16384));
  const double modelled = *pd.kv_transfer->time_ms(16384);
  EXPECT_NEAR(modelled, 51.76, 0.01);  // 16,384 x 131,072 B / 41.5 GB/s + 15 µs
  const double with = points.at("pd/long/c1").ttft_ms.mean;
  const double without = points.at("pd-no-transfer/long/c1").ttft_ms.mean;
  EXPECT_NEAR(with - without, modelled, 0.25 * modelled + 4) << "TTFT " << with << " ms vs " << without << " ms";
  // Every part was stopped: no pid file left.
  for (const char* p : {"prefill", "decode", "router"}) {
    EXPECT_FALSE(std::filesystem::exists(dir / "out/arms/pd" / (std::string("server-") + p + ".pid"))) << p;
    EXPECT_TRUE(std::filesystem::exists(dir / "out/arms/pd" / (std::string("server-") + p + ".log"))) << p;
  }
  const auto report = run_servebench({"report", "out"}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const std::string md = util::read_file(dir / "out/report.md").value_or("");
  EXPECT_NE(md.find("pd is prefill/decode-disaggregated"), std::string::npos) << md;
  EXPECT_NE(md.find("51.8 ms for a 16,384-token prompt"), std::string::npos) << md;
  EXPECT_NE(md.find("KV transfer: none (transfer backend fake"), std::string::npos) << md;
}

}  // namespace
}  // namespace servebench::e2e
