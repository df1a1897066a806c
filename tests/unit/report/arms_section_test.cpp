#include <gtest/gtest.h>

#include "report_test_support.hpp"
#include "servebench/report/report_builder.hpp"

using namespace servebench::report;
using namespace servebench::report::test_support;

TEST(ArmsSection, CapacityGateFingerprintAndLaunchPerArm) {
  Document doc;
  add_arms_section(fixture_set({"two-arm"}), doc);
  const std::string md = markdown_of(doc);
  EXPECT_NE(md.find("| e7b    | b300-replica |    8 |        276,480 |                   16 |        270,336 | EAGLE3 "
                    "steps 4, topk 1, draft tokens 5 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| tp2pp4 | b300-replica |    8 |      1,040,384 |                   48 |      1,048,576 | none "),
            std::string::npos);
  EXPECT_NE(md.find("passed (arithmetic 8/8 passed; greedy_identity passed; tool_call skipped)"), std::string::npos);
  EXPECT_NE(md.find("e7b: fingerprint sha256:7e57c0ffee0e7b"), std::string::npos);
  EXPECT_NE(md.find("```\npython -m sglang.launch_server --model-path zai-org/GLM-5.3-Flash --tp-size 2 --pp-size 4"),
            std::string::npos);
}

TEST(ArmsSection, GpusFallBackToTheLedgerWithoutFacts) {
  Document doc;
  add_arms_section(fixture_set({"torn-ledger"}), doc);
  const std::string md = markdown_of(doc);
  // No server_facts.json: GPUs come from the records (8), the rest is not recorded.
  EXPECT_NE(md.find("| e7b | torn     |    8 |   not recorded |         not recorded |"), std::string::npos) << md;
  EXPECT_NE(md.find("not run"), std::string::npos);
}
