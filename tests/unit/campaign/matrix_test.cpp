#include "servebench/campaign/matrix.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

CampaignSpec two_by_two() {
  const std::string yaml = R"Y(
name: m
protocol: {num_prompts: "max(8, 2*c)"}
arms:
  - {name: a, engine: sim, base_url: "http://127.0.0.1:1"}
  - {name: b, engine: sim, base_url: "http://127.0.0.1:2"}
scenarios:
  - {name: chat, isl: 1000, osl: 1000, concurrency: [1, 16]}
  - {name: long, isl: 65536, osl: 512, concurrency: [1, 4, 8]}
)Y";
  auto spec = parse_campaign(yaml, "m.yaml", "/tmp");
  EXPECT_TRUE(spec) << spec.error().message;
  return *spec;
}

TEST(Matrix, ExpandsArmByArmInFileOrder) {
  const auto spec = two_by_two();
  const auto points = expand(spec);
  ASSERT_EQ(points.size(), 10u);
  std::vector<std::string> ids;
  for (const auto& p : points) ids.push_back(results::point_id(key_of(spec, p)));
  EXPECT_EQ(ids, (std::vector<std::string>{"a/chat/c1", "a/chat/c16", "a/long/c1", "a/long/c4", "a/long/c8", "b/chat/c1",
                                           "b/chat/c16", "b/long/c1", "b/long/c4", "b/long/c8"}));
  EXPECT_EQ(points[0].num_prompts, 8);
  EXPECT_EQ(points[1].num_prompts, 32);
}

TEST(Matrix, OnlyFiltersByArmScenarioAndConcurrency) {
  const auto spec = two_by_two();
  auto only = parse_only("arm=b, scenario=long, c=4, c=8", spec);
  ASSERT_TRUE(only) << only.error().message;
  const auto points = expand(spec, *only);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(results::point_id(key_of(spec, points[0])), "b/long/c4");
  EXPECT_EQ(results::point_id(key_of(spec, points[1])), "b/long/c8");
}

TEST(Matrix, OnlyRejectsUnknownKeysAndNames) {
  const auto spec = two_by_two();
  EXPECT_EQ(parse_only("arm=z", spec).error().message, "--only: no arm 'z' in m.yaml");
  EXPECT_EQ(parse_only("scenario=z", spec).error().message, "--only: no scenario 'z' in m.yaml");
  EXPECT_EQ(parse_only("gpu=1", spec).error().message, "--only key 'gpu' is not one of arm, scenario, c");
  EXPECT_EQ(parse_only("arm", spec).error().message, "--only item 'arm' is not key=value (keys: arm, scenario, c)");
  EXPECT_FALSE(parse_only("c=x", spec));
}

TEST(Matrix, CapIsTheSmallestOfConcurrencyRunningRequestsAndKvPool) {
  // The brief's 64K->512 caps: 15 for tp2pp4 (pool 1,040,384), 4 for e7b (pool 276,480, MRR 16).
  const ArmLimits tp2pp4{1'048'576, 1'040'384, 48};
  const ArmLimits e7b{270'336, 276'480, 16};
  EXPECT_EQ(cap_point(65536, 512, 8, tp2pp4).effective, 8);
  EXPECT_EQ(cap_point(65536, 512, 64, tp2pp4).effective, 15);
  EXPECT_EQ(cap_point(65536, 512, 64, tp2pp4).limited_by, "kv pool 1040384 tokens");
  EXPECT_EQ(cap_point(65536, 512, 8, e7b).effective, 4);
  EXPECT_EQ(cap_point(16384, 512, 32, e7b).effective, 16);
  EXPECT_EQ(cap_point(16384, 512, 32, e7b).limited_by, "max_running_requests 16");
  EXPECT_EQ(cap_point(16384, 512, 8, e7b).limited_by, "");
}

TEST(Matrix, PointsBeyondTheContextAreStructurallySkipped) {
  const ArmLimits e7b{270'336, 276'480, 16};
  const auto cap = cap_point(1'048'576, 1, 1, e7b);
  EXPECT_EQ(cap.skip_reason, "isl+osl 1048577 exceeds context 270336");
  EXPECT_EQ(cap.effective, 0);
  const ArmLimits small_pool{std::nullopt, 1000, std::nullopt};
  EXPECT_EQ(cap_point(1000, 1, 1, small_pool).skip_reason, "isl+osl 1001 exceeds the KV pool of 1000 tokens");
}

TEST(Matrix, UnknownLimitsDoNotCap) {
  const auto cap = cap_point(1000, 1000, 80, ArmLimits{});
  EXPECT_EQ(cap.effective, 80);
  EXPECT_TRUE(cap.skip_reason.empty());
}

}  // namespace
}  // namespace servebench::campaign
