#include "servebench/engines/control_call.hpp"

#include <gtest/gtest.h>

#include "fake_exchange.hpp"

namespace servebench::engines {
namespace {

using testing::FakeExchange;
using testing::ManualPacer;

TEST(ControlCall, StatusErrorsNameMethodUrlStatusAndBody) {
  FakeExchange ex;
  ex.on(http::Method::get, "/props", 500, "{\"error\":\"x\"}\n");
  auto v = get_json(ex, "/props");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "GET http://127.0.0.1:30000/props: HTTP 500: {\"error\":\"x\"}");
  ex.on(http::Method::post, "/tokenize", 200, "not json");
  auto p = post_json(ex, "/tokenize", "{}");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("POST http://127.0.0.1:30000/tokenize"), std::string::npos);
}

TEST(ControlCall, MissingMetricsRouteGivesTheHint) {
  FakeExchange ex;
  auto s = scrape_metrics(ex, "start it with --metrics");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("HTTP 404"), std::string::npos);
  EXPECT_NE(s.error().message.find("start it with --metrics"), std::string::npos);
}

TEST(ControlCall, UnreachableServerKeepsItsKind) {
  FakeExchange ex;
  ex.set_unreachable();
  auto v = get_json(ex, "/v1/models");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().kind, util::ErrorKind::unreachable);
}

TEST(ControlCall, PollUntilStopsAtTheDeadline) {
  util::ManualClock clock;
  ManualPacer pacer(clock);
  int calls = 0;
  auto r = poll_until(clock, pacer, clock.now() + std::chrono::seconds(1),
                      [&]() -> util::Result<bool> { return ++calls > 100; }, "wait");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "wait: still not done after the deadline");
  EXPECT_EQ(calls, 5);  // at 0, 250, 500, 750 and 1000 ms
  calls = 0;
  EXPECT_TRUE(poll_until(clock, pacer, clock.now() + std::chrono::seconds(1),
                         [&]() -> util::Result<bool> { return ++calls == 3; }, "wait"));
  EXPECT_EQ(calls, 3);
}

TEST(ControlCall, PollUntilPassesFailuresThrough) {
  util::ManualClock clock;
  ManualPacer pacer(clock);
  auto r = poll_until(clock, pacer, clock.now() + std::chrono::seconds(1),
                      []() -> util::Result<bool> { return util::fail("boom"); }, "wait");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "boom");
  EXPECT_EQ(pacer.pauses, 0);
}

TEST(ControlCall, RatioOfDeltas) {
  EXPECT_EQ(delta(10.0, 25.0), 15.0);
  EXPECT_FALSE(delta(std::nullopt, 25.0));
  auto r = ratio_of_deltas(5.0, 100.0, "x", "c");
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(*r, 0.05);
  auto none = ratio_of_deltas(0.0, 0.0, "sglang", "c");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("counted no prompt tokens"), std::string::npos);
  EXPECT_FALSE(ratio_of_deltas(std::nullopt, 10.0, "x", "c"));
}

}  // namespace
}  // namespace servebench::engines
