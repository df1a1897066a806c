#include "servebench/load/summary_table.hpp"

#include <gtest/gtest.h>

#include "run_fixture.hpp"

namespace servebench::load {
namespace {

TEST(SummaryTable, UsesSglangLabelsAndAlignment) {
  const std::string t = summary_table(testing::small_run());
  EXPECT_EQ(t.rfind("============ Serving Benchmark Result ============\n", 0), 0u) << t;
  for (const char* label : {"Successful requests:", "Benchmark duration (s):", "Total input tokens:",
                            "Total generated tokens:", "Total generated tokens (retokenized):",
                            "Request throughput (req/s):", "Input token throughput (tok/s):",
                            "Output token throughput (tok/s):", "Peak output token throughput (tok/s):",
                            "Peak concurrent requests:", "Total token throughput (tok/s):", "Concurrency:",
                            "Mean E2E Latency (ms):", "Median TTFT (ms):", "P99 TPOT (ms):", "P95 ITL (ms):",
                            "Max ITL (ms):"}) {
    EXPECT_NE(t.find(label), std::string::npos) << label;
  }
  EXPECT_NE(t.find("Successful requests:                     2         \n"), std::string::npos) << t;
  EXPECT_NE(t.find("Mean TTFT (ms):                          75.00     \n"), std::string::npos) << t;
  EXPECT_NE(t.find("  timeout:                               1"), std::string::npos) << t;
  EXPECT_EQ(t.find("Accept length:"), std::string::npos);  // only when there is one
}

}  // namespace
}  // namespace servebench::load
