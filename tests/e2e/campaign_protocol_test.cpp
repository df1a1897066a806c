// The protocol's cache verification against a planted contamination: serve-sim with radix cache
// and a host tier that its flush keeps (--sim-flush-keeps-host-tier, the brief's trap), fed a
// small corpus that must be recycled. Detected, retried with a re-flush, marked invalid with the rate.
#include <map>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

using results::PointStatus;

TEST(CampaignProtocol, HostTierContaminationIsDetectedRetriedAndMarkedInvalidWithTheRate) {
  const auto dir = campaign_temp_dir("trap");
  std::string text;
  for (int i = 0; i < 700; ++i) text += (i % 3 == 0 ? "alpha " : i % 3 == 1 ? "beta gamma " : "delta. ");
  write_text(dir / "corpus.txt", text);
  write_text(dir / "c.yaml",
             "name: trap\nprotocol:\n  num_prompts: '4'\n  warmup_requests: 1\n  client_lag_limit: 1000\n"
             "  prompts: {source: corpus, path: corpus.txt}\narms:\n"
             "  - {name: trap, engine: sim, gate: false, launch: \"" +
                 sim_launch("--enable-hierarchical-cache --sim-flush-keeps-host-tier") + "\"}\n"
             "scenarios: [{name: s, isl: 200, osl: 8, concurrency: [1, 2, 3]}]\n");
  const auto r = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto ledger = read_run_ledger(dir / "out");
  std::map<std::string, results::PointRecord> points;
  for (const auto& p : ledger.latest()) points[results::point_id(results::key_of(p))] = p;
  ASSERT_EQ(points.size(), 3u) << r.out;
  EXPECT_EQ(points.at("trap/s/c1").status, PointStatus::ok) << "fresh windows: nothing to hit";
  EXPECT_FALSE(points.at("trap/s/c1").prompts.recycled);
  const auto& hit = points.at("trap/s/c3");
  EXPECT_TRUE(hit.prompts.recycled);
  EXPECT_EQ(hit.status, PointStatus::invalid);
  ASSERT_TRUE(hit.cache.hit_rate.has_value());
  EXPECT_GT(*hit.cache.hit_rate, 0.5);
  EXPECT_EQ(hit.cache.attempts, 2) << "re-flushed and re-run once";
  EXPECT_FALSE(hit.cache.verified);
  EXPECT_EQ(hit.reason.substr(0, 16), "cache hit rate 0");
  EXPECT_NE(hit.reason.find("> 0.01 after 2 attempts"), std::string::npos) << hit.reason;
  const auto& rates = hit.extra.at("protocol").as_object().at("attempt_hit_rates").as_array();
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_GT(rates[0].to_number<double>(), 0.5);
}

TEST(CampaignProtocol, AnExhaustedCorpusStopsTheCampaignWithoutVerification) {
  const auto dir = campaign_temp_dir("exhausted");
  std::string text;
  for (int i = 0; i < 300; ++i) text += "word ";
  write_text(dir / "corpus.txt", text);
  write_text(dir / "c.yaml", "name: ex\nprotocol:\n  num_prompts: '4'\n  max_cache_hit_rate: null\n  client_lag_limit: 1000\n"
                             "  prompts: {source: corpus, path: corpus.txt}\narms:\n"
                             "  - {name: a, engine: sim, gate: false, launch: \"" + sim_launch() + "\"}\n"
                             "scenarios: [{name: s, isl: 64, osl: 4, concurrency: [1, 2, 3, 4]}]\n");
  const auto r = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("is used up"), std::string::npos) << r.err;
  for (const auto& p : read_run_ledger(dir / "out").latest()) EXPECT_FALSE(p.prompts.recycled);
}

}  // namespace
}  // namespace servebench::e2e
