// Golden tests: the fixtures rendered to every format and compared byte for byte with
// tests/golden/report/. With UPDATE_GOLDEN=1 the test rewrites the golden files instead (review
// the diff before committing).
#include "servebench/report/report_files.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

using namespace servebench::report;
namespace fs = std::filesystem;

namespace {

// Paths in the report are the run directories as given; render from the source root with relative
// paths so the golden files do not depend on where the repository is checked out.
class GoldenReport : public ::testing::Test {
 protected:
  void SetUp() override {
    m_previous = fs::current_path();
    fs::current_path(SERVEBENCH_SOURCE_DIR);
  }
  void TearDown() override { fs::current_path(m_previous); }

  static void compare(const std::string& name, const ReportInputs& in, const std::vector<OutputFormat>& formats) {
    const bool update = std::getenv("UPDATE_GOLDEN") != nullptr && std::string(std::getenv("UPDATE_GOLDEN")) == "1";
    for (const auto& [suffix, content] : render_report(in, ReportOptions{}, formats)) {
      const fs::path golden = fs::path("tests/golden/report") / (name + suffix);
      if (update) {
        ASSERT_TRUE(servebench::util::write_file_atomic(golden, content));
        continue;
      }
      const auto expected = servebench::util::read_file(golden);
      ASSERT_TRUE(expected) << golden << " is missing; run with UPDATE_GOLDEN=1 to create it";
      EXPECT_EQ(content, *expected) << golden << " differs; run with UPDATE_GOLDEN=1 and review the diff";
    }
  }

 private:
  fs::path m_previous;
};

}  // namespace

TEST_F(GoldenReport, TwoArmCampaignWithBaseline) {
  const auto in = load_report_inputs({"tests/fixtures/report/two-arm"}, fs::path("tests/fixtures/report/baseline.csv"));
  ASSERT_TRUE(in) << in.error().message;
  compare("two-arm", *in, {OutputFormat::markdown, OutputFormat::html, OutputFormat::json});
}

// The run in a baseline report's chapters (--baseline-structure): every verdict kind, a unit in
// seconds, a scenario the run lacks, one impossible everywhere.
TEST_F(GoldenReport, TwoArmInTheChaptersOfABaselineReport) {
  const auto in = load_report_inputs({"tests/fixtures/report/two-arm"}, std::nullopt,
                                     fs::path("tests/fixtures/report/two-arm-chapters.yaml"));
  ASSERT_TRUE(in) << in.error().message;
  compare("two-arm-chapters", *in, {OutputFormat::markdown, OutputFormat::html});
}

TEST(ReportFiles, AnUnreadableBaselineStructureIsBadInputNamingTheFile) {
  const auto in = load_report_inputs({fs::path(SERVEBENCH_SOURCE_DIR) / "tests/fixtures/report/two-arm"}, std::nullopt,
                                     fs::path("/nonexistent/chapters.yaml"));
  ASSERT_FALSE(in);
  EXPECT_EQ(in.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(in.error().message.find("/nonexistent/chapters.yaml"), std::string::npos) << in.error().message;
}

TEST_F(GoldenReport, TwoMachinesMerged) {
  const auto in =
      load_report_inputs({"tests/fixtures/report/two-arm", "tests/fixtures/report/machine-b"}, std::nullopt);
  ASSERT_TRUE(in) << in.error().message;
  compare("two-machines", *in, {OutputFormat::markdown});
}

TEST_F(GoldenReport, TornLedgerStillRenders) {
  const auto in = load_report_inputs({"tests/fixtures/report/torn-ledger"}, std::nullopt);
  ASSERT_TRUE(in) << in.error().message;
  const auto files = render_report(*in, ReportOptions{}, {OutputFormat::markdown});
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].second.find("1 ledger record was unreadable (line 3: torn last line"), std::string::npos);
  compare("torn-ledger", *in, {OutputFormat::markdown});
}

// protocol.repeats: one row per point with medians and the spread; a difference between arms is
// called only where the 95 % intervals separate.
TEST_F(GoldenReport, RepeatsShowSpreadAndNoiseVerdicts) {
  const auto in = load_report_inputs({"tests/fixtures/report/repeats"}, std::nullopt);
  ASSERT_TRUE(in) << in.error().message;
  const auto files = render_report(*in, ReportOptions{}, {OutputFormat::markdown});
  ASSERT_EQ(files.size(), 1u);
  const std::string& md = files[0].second;
  EXPECT_NE(md.find("|   8 | within noise: alpha, beta |       810 | 95% intervals overlap |"), std::string::npos) << md;
  EXPECT_NE(md.find("1k-256: crossover at C=32 — alpha leads below, beta from C=32 on"), std::string::npos);
  EXPECT_NE(md.find("2/3 |       2,100–2,150 |"), std::string::npos);  // beta at C=32: one repeat invalid
  EXPECT_EQ(md.find("#2"), std::string::npos);       // repeats are folded into their point
  compare("repeats", *in, {OutputFormat::markdown, OutputFormat::html});
}

// Three sweeps (servebench sweep, one run directory each): two concurrency searches of two arms on
// one scenario and a rate search. The boundary per arm in both files, a table of the runs, and one
// chart per SLO key plotting the key's own statistic with the limit as a dashed line.
TEST_F(GoldenReport, SloSweepsShowTheBoundaryPerArmAndTheLimitOnTheirCharts) {
  const auto in = load_report_inputs(
      {"tests/fixtures/report/sweep-tp1", "tests/fixtures/report/sweep-tp2", "tests/fixtures/report/sweep-rate"},
      std::nullopt);
  ASSERT_TRUE(in) << in.error().message;
  const auto files = render_report(*in, ReportOptions{}, {OutputFormat::markdown, OutputFormat::html});
  ASSERT_EQ(files.size(), 2u);
  const std::string& md = files[0].second;
  const std::string& html = files[1].second;
  // tp1 met at C=13 and missed at C=14 (TPOT p50 31 > 30); tp2's run at C=28 met both keys but was
  // invalid (client unhealthy), so it is no boundary: 26 met, 27 missed.
  for (const std::string& row : {std::string("| tp1 | slo-search | ttft_p99_ms ≤ 2000, tpot_p50_ms ≤ 30 |           C=13 |       C=14 |    8 |"),
                                 std::string("| tp2 | slo-search | ttft_p99_ms ≤ 2000, tpot_p50_ms ≤ 30 |           C=26 |       C=27 |   10 |"),
                                 std::string("| tp4 | slo-rate   | ttft_p90_ms ≤ 500                    |       13 req/s | 13.5 req/s |    8 |")}) {
    EXPECT_NE(md.find(row), std::string::npos) << row << "\n" << md;
  }
  for (const std::string& cell : {std::string("<td>tp1</td><td>slo-search</td><td>ttft_p99_ms ≤ 2000, tpot_p50_ms ≤ 30</td><td class=\"r\">C=13</td><td class=\"r\">C=14</td>"),
                                  std::string("<td class=\"r\">C=26</td><td class=\"r\">C=27</td>"),
                                  std::string("<td class=\"r\">13 req/s</td><td class=\"r\">13.5 req/s</td>")}) {
    EXPECT_NE(html.find(cell), std::string::npos) << cell;
  }
  // One limit line per SLO key: TTFT p99 and TPOT p50 of slo-search, TTFT p90 of slo-rate.
  EXPECT_EQ(occurrences(html, "<line class=\"limit-line\""), 3u);
  for (const std::string& label : {std::string(">SLO ttft p99 ≤ 2,000.0 ms</text>"), std::string(">SLO tpot p50 ≤ 30.0 ms</text>"),
                                   std::string(">SLO ttft p90 ≤ 500.0 ms</text>")}) {
    EXPECT_NE(html.find(label), std::string::npos) << label;
  }
  EXPECT_NE(html.find("slo-search: TTFT p99 vs concurrency"), std::string::npos);
  EXPECT_NE(html.find("slo-rate: TTFT p90 vs request rate"), std::string::npos);
  EXPECT_NE(md.find("*Chart: slo-search: TPOT p50 vs concurrency, dashed line at SLO tpot p50 ≤ 30.0 ms"),
            std::string::npos);
  compare("slo-sweeps", *in, {OutputFormat::markdown, OutputFormat::html});
}

// A run without an SLO has no SLO section, no SLO chart and no limit line anywhere.
TEST_F(GoldenReport, ARunWithoutAnSloDrawsNoLimitLine) {
  const auto in = load_report_inputs({"tests/fixtures/report/two-arm"}, std::nullopt);
  ASSERT_TRUE(in) << in.error().message;
  const auto files = render_report(*in, ReportOptions{}, {OutputFormat::markdown, OutputFormat::html});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_NE(files[1].second.find("<svg class=\"chart\""), std::string::npos);  // it has charts
  EXPECT_EQ(files[1].second.find("limit-line"), std::string::npos);
  EXPECT_EQ(files[1].second.find("SLO boundary"), std::string::npos);
  EXPECT_EQ(files[0].second.find("dashed line"), std::string::npos);
}

TEST(ReportFiles, ParsesFormatLists) {
  const auto f = parse_formats("md, HTML,json,md");
  ASSERT_TRUE(f);
  EXPECT_EQ(*f, (std::vector<OutputFormat>{OutputFormat::markdown, OutputFormat::html, OutputFormat::json}));
  const auto bad = parse_formats("md,pdf");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'pdf'"), std::string::npos);
}

TEST(ReportFiles, WritesEveryFileUnderThePrefix) {
  const auto in = load_report_inputs({fs::path(SERVEBENCH_SOURCE_DIR) / "tests/fixtures/report/two-arm"}, std::nullopt);
  ASSERT_TRUE(in);
  const fs::path dir = fs::temp_directory_path() / ("sb_report_files_test." + std::to_string(::getpid()));
  fs::remove_all(dir);
  const auto written = write_report(*in, ReportOptions{}, {OutputFormat::html, OutputFormat::json}, dir / "sub" / "r");
  ASSERT_TRUE(written) << written.error().message;
  ASSERT_EQ(written->size(), 4u);
  EXPECT_EQ((*written)[0], dir / "sub" / "r.html");
  EXPECT_EQ((*written)[3], dir / "sub" / "r.vllm.json");
  for (const auto& p : *written) EXPECT_GT(fs::file_size(p), 100u) << p;
  fs::remove_all(dir);
}

TEST(ReportFiles, UnreadableInputIsBadInputNamingTheFile) {
  const auto in = load_report_inputs({fs::path(SERVEBENCH_SOURCE_DIR) / "tests/fixtures/report/two-arm"},
                                     fs::path("/nonexistent/baseline.csv"));
  ASSERT_FALSE(in);
  EXPECT_EQ(in.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(in.error().message.find("/nonexistent/baseline.csv"), std::string::npos);
}

TEST(ReportFiles, BaselineNamedInTheCampaignFileIsUsedWhenPresent) {
  const fs::path fixtures = fs::path(SERVEBENCH_SOURCE_DIR) / "tests/fixtures/report";
  const fs::path dir = fs::temp_directory_path() / ("sb_report_campaign_baseline_test." + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(fixtures / "two-arm/ledger.jsonl", dir / "ledger.jsonl");
  fs::copy_file(fixtures / "baseline.csv", dir / "reference.csv");
  ASSERT_TRUE(servebench::util::write_file_atomic(
      dir / "campaign.yaml", "name: x\nbaseline: {name: reference report, ledger: reference.csv}\n"));
  const auto in = load_report_inputs({dir}, std::nullopt);
  ASSERT_TRUE(in) << in.error().message;
  ASSERT_TRUE(in->baseline);
  EXPECT_EQ(in->baseline->label, "reference report");
  EXPECT_EQ(in->baseline->points.size(), 7u);
  // A baseline file that is not there is not an error: the report just has no comparison.
  fs::remove(dir / "reference.csv");
  const auto without = load_report_inputs({dir}, std::nullopt);
  ASSERT_TRUE(without);
  EXPECT_FALSE(without->baseline);
  fs::remove_all(dir);
}
