#include "servebench/util/clock.hpp"

#include <cmath>

#include <gtest/gtest.h>

using namespace servebench::util;
using namespace std::chrono_literals;

TEST(ManualClock, MovesOnlyWhenTold) {
  ManualClock c;
  const auto t0 = c.now();
  EXPECT_EQ(c.now(), t0);
  c.advance(5ms);
  EXPECT_EQ(c.now() - t0, 5ms);
}

TEST(FormatUtc, RoundTrips) {
  WallTime t{};
  ASSERT_TRUE(parse_utc("2026-11-29T15:00:07Z", t));
  EXPECT_EQ(format_utc(t), "2026-11-29T15:00:07Z");
}

TEST(FormatUtc, RejectsGarbage) {
  WallTime t{};
  EXPECT_FALSE(parse_utc("2026-11-29 15:00:07", t));
  EXPECT_FALSE(parse_utc("yesterday", t));
}

TEST(FromMs, ConvertsAndSaturatesInsteadOfOverflowing) {
  EXPECT_EQ(from_ms(5.37), std::chrono::duration_cast<Nanos>(std::chrono::duration<double, std::milli>(5.37)));
  EXPECT_EQ(from_ms(1.5), 1500us);
  EXPECT_EQ(from_seconds(2), 2s);
  // A server's 8e98 ms (found by fuzzing the chunk parser) was an out-of-range cast: undefined.
  EXPECT_EQ(from_ms(8.18182e98), Nanos::max());
  EXPECT_EQ(from_ms(-1e300), Nanos::min());
  EXPECT_EQ(from_seconds(1e300), Nanos::max());
  EXPECT_EQ(from_ms(std::nan("")), Nanos{0});
  EXPECT_EQ(from_ms(9.2e12), Nanos::max());  // just past the range's edge
  EXPECT_EQ(from_ms(9.1e12), Nanos{9'100'000'000'000'000'000});
}
