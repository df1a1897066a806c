#include "servebench/util/clock.hpp"

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
