#include "servebench/campaign/protocol.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

struct ProtocolFixture {
  ProtocolFixture() {
    auto s = parse_campaign("name: p\narms: [{name: a, engine: sim, base_url: 'http://x:1', gpus: 4}]\n"
                            "scenarios: [{name: s, isl: 300000, osl: 1, concurrency: [2]}]\n",
                            "p.yaml", "/");
    spec = *s;
    ctx.spec = &spec;
    ctx.arm = &spec.arms[0];
    ctx.gate = {true, true};
    ctx.server_ref = {"sim", "sha256:abc", "arms/a/server_facts.json"};
    ctx.tool = {"0.1.0", "abc"};
    point = expand(spec)[0];
  }
  CampaignSpec spec;
  ArmContext ctx;
  PlannedPoint point;
};

TEST(Protocol, SkippedRecordsCarryTheStructuralReasonAndNoNumbers) {
  ProtocolFixture f;
  const PointCap cap = cap_point(300000, 1, 2, ArmLimits{270336, 276480, 16});
  const auto r = skipped_record(f.ctx, f.point, cap);
  EXPECT_EQ(r.status, results::PointStatus::skipped);
  EXPECT_EQ(r.reason, "isl+osl 300001 exceeds context 270336");
  EXPECT_EQ(r.effective_concurrency, 0);
  EXPECT_EQ(r.num_prompts, 8);
  EXPECT_EQ(r.gpus, 4);
  EXPECT_TRUE(std::isnan(r.ttft_ms.mean)) << "undefined statistics are written as null";
  EXPECT_EQ(r.gate.passed, std::optional<bool>(true));
  EXPECT_EQ(r.server.fingerprint, "sha256:abc");
  EXPECT_EQ(r.prompts.source, "random-ids");
  EXPECT_EQ(r.tool.git, "abc");
  EXPECT_EQ(results::point_id(results::key_of(r)), "a/s/c2");
}

TEST(Protocol, FailedRecordsCarryTheReason) {
  ProtocolFixture f;
  const auto r = failed_record(f.ctx, f.point, "before hook of arm 'a' exited with status 1");
  EXPECT_EQ(r.status, results::PointStatus::failed);
  EXPECT_EQ(r.reason, "before hook of arm 'a' exited with status 1");
  EXPECT_EQ(r.campaign, "p");
  EXPECT_FALSE(r.started_at.empty());
}

}  // namespace
}  // namespace servebench::campaign
