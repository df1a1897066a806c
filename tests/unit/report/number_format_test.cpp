#include "servebench/report/number_format.hpp"

#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

using namespace servebench::report;

TEST(NumberFormat, TokensPerSecondByMagnitude) {
  EXPECT_EQ(format_tok_per_s(0.0222), "0.022");
  EXPECT_EQ(format_tok_per_s(49.64), "49.6");
  EXPECT_EQ(format_tok_per_s(99.96), "100");  // the rounded value decides, so no "100.0"
  EXPECT_EQ(format_tok_per_s(412.4), "412");
  EXPECT_EQ(format_tok_per_s(8975.5), "8,976");
  EXPECT_EQ(format_tok_per_s(1234567.0), "1,234,567");
}

TEST(NumberFormat, RoundsHalfAwayFromZero) {
  EXPECT_EQ(format_ms(0.25), "0.3");
  EXPECT_EQ(format_ms(-0.25), "-0.3");
  EXPECT_EQ(format_fixed(2.5, 0), "3");
  EXPECT_EQ(format_fixed(-0.04, 1), "0.0");  // no negative zero
}

TEST(NumberFormat, UnitsHaveTheirDocumentedPrecision) {
  EXPECT_EQ(format_ms(1459.64), "1,459.6");
  EXPECT_EQ(format_ratio(2.954), "2.95×");
  EXPECT_EQ(format_rate(0.00031), "0.0003");
  EXPECT_EQ(format_accept(4), "4.00");
  EXPECT_EQ(format_count(1048576), "1,048,576");
  EXPECT_EQ(format_count(-1000), "-1,000");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(INT64_MIN), "-9,223,372,036,854,775,808");
}

TEST(NumberFormat, MissingValuesShowADash) {
  EXPECT_EQ(format_ms(std::nan("")), k_missing);
  EXPECT_EQ(format_ratio(INFINITY), k_missing);
  EXPECT_EQ(format_tok_per_s(std::nan("")), k_missing);
  EXPECT_EQ(format_optional(std::nullopt, format_accept), k_missing);
  EXPECT_EQ(format_optional(3.456, format_accept), "3.46");
}

TEST(NumberFormat, RequestRatesKeepSixSignificantDigits) {
  EXPECT_EQ(format_req_per_s(13.5), "13.5");
  EXPECT_EQ(format_req_per_s(2), "2");
  EXPECT_EQ(format_req_per_s(23.560225000000003), "23.5602");  // a bisected rate, not its binary expansion
  EXPECT_EQ(format_req_per_s(0.125), "0.125");
  EXPECT_EQ(format_req_per_s(std::nan("")), "—");
}
