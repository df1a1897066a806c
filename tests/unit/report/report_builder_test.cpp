#include "servebench/report/report_builder.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(ReportBuilder, SectionsInOrderAndTitleNamesEveryCampaign) {
  const Document doc = build_report(fixture_set({"two-arm", "machine-b"}), nullptr, ReportOptions{});
  EXPECT_EQ(doc.title, "servebench report: b300-replica + b300-replica-b");
  std::vector<std::string> h2;
  for (const auto& b : doc.blocks) {
    if (const auto* h = std::get_if<Heading>(&b); h && h->level == 2) h2.push_back(h->text);
  }
  EXPECT_EQ(h2, (std::vector<std::string>{"Campaign", "Arms", "Results by scenario", "Verdicts",
                                          "Appendix: what the campaign ran with"}));
  // machine-b's e7b did not get its in-service server back: the document opens with that.
  ASSERT_FALSE(doc.blocks.empty());
  const auto* banner = std::get_if<Banner>(&doc.blocks.front());
  ASSERT_NE(banner, nullptr);
  EXPECT_NE(banner->text.find("RESTORE FAILED — arm e7b@b300-replica-b"), std::string::npos) << banner->text;
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("e7b@b300-replica-b"), std::string::npos);
  EXPECT_NE(md.find("e7b@b300-replica "), std::string::npos);
}

TEST(ReportBuilder, SameInputSameDocument) {
  const auto a = markdown_of(build_report(fixture_set({"two-arm"}), nullptr, ReportOptions{}));
  const auto b = markdown_of(build_report(fixture_set({"two-arm"}), nullptr, ReportOptions{}));
  EXPECT_EQ(a, b);
}

TEST(ReportBuilder, LabelsForScenariosAndLevels) {
  EXPECT_EQ(scenario_title({"16k-512", 16384, 512}), "16k-512 (ISL 16,384 → OSL 512)");
  EXPECT_EQ(level_label(8, std::nullopt), "8");
  EXPECT_EQ(level_label(8, 2.5), "8 @ 2.5 req/s");
}
