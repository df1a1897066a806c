#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/report_builder.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(HeaderSection, SpanGenerationTimeProtocolAndFacts) {
  Document doc;
  add_header_section(fixture_set({"two-arm"}), doc);
  const std::string md = markdown_of(doc);
  // The last point (tp2pp4 512k-1 C2) started 09:33:24Z and ran 332.0 s: it ended 09:38:56Z.
  EXPECT_NE(md.find("Measured: 2026-11-20T08:00:00Z to 2026-11-20T09:38:56Z"), std::string::npos);
  EXPECT_NE(md.find("Generated as of 2026-11-20T09:38:56Z"), std::string::npos);
  EXPECT_NE(md.find("servebench 0.1.0 (git f1x7ure)"), std::string::npos);
  EXPECT_NE(md.find("18 points: 15 ok, 2 skipped (structural), 1 invalid, 0 failed"), std::string::npos);
  EXPECT_NE(md.find("| cache hit threshold "), std::string::npos);
  EXPECT_NE(md.find("| e7b    | sglang | 0.5.9 "), std::string::npos);
  EXPECT_EQ(md.find("unreadable"), std::string::npos);
}

TEST(HeaderSection, TornLedgerLineIsReportedAndMissingFactsAreNotRecorded) {
  Document doc;
  add_header_section(fixture_set({"torn-ledger"}), doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("1 ledger record was unreadable (line 3: torn last line (likely a crash mid-write), ignored)."),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| e7b | not recorded | not recorded"), std::string::npos) << md;
  EXPECT_NE(md.find("| percentile method "), std::string::npos);
}

TEST(HeaderSection, SimulatedArmsNameTheirHardwareAndTheTimeBase) {
  Document doc;
  add_header_section(fixture_set({"sim-run"}), doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("rtx-pro-6000 (simulated, clock ×5.00)"), std::string::npos) << md;
  EXPECT_NE(md.find("Time base: 2 points in simulated time"), std::string::npos) << md;
  EXPECT_NE(md.find("(e7b ×5.00)"), std::string::npos) << md;
  EXPECT_EQ(md.find("in real time"), std::string::npos) << md;
  // The span ends at the wall-clock end of the last point (09:01:48 + 69.1 s × 0.2), not its simulated end.
  EXPECT_NE(md.find("Measured: 2026-11-22T09:00:00Z to 2026-11-22T09:02:01Z"), std::string::npos) << md;
}

TEST(HeaderSection, RealEnginesSayNothingAboutATimeBase) {
  Document doc;
  add_header_section(fixture_set({"two-arm"}), doc);
  const std::string md = markdown_of(doc);
  EXPECT_EQ(md.find("Time base"), std::string::npos) << md;
  EXPECT_EQ(md.find("simulated"), std::string::npos) << md;
}

TEST(HeaderSection, AnUntimedSimulatorIsMarkedAsSuch) {
  CampaignSet set = fixture_set({"sim-run"});
  for (auto& a : set.arms) a.facts.sim_time_scale = 0.0;
  Document doc;
  add_header_section(set, doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("rtx-pro-6000 (simulated untimed: times are not the hardware's)"), std::string::npos) << md;
}
