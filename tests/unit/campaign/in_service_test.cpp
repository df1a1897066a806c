#include "servebench/campaign/in_service.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

util::Result<CampaignSpec> with_in_service(const std::string& in_service) {
  return parse_campaign("name: c\narms: [{name: a, engine: sim, base_url: 'http://x:1', in_service: " + in_service +
                            "}]\nscenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n",
                        "c.yaml", "/");
}

TEST(InService, TheSpecIsReadWithDefaultsAndRoundTripsThroughTheResolvedFile) {
  auto spec = with_in_service("{url: 'http://127.0.0.1:30000'}");
  ASSERT_TRUE(spec) << spec.error().message;
  const auto& s = spec->arms[0].in_service;
  ASSERT_TRUE(s);
  EXPECT_EQ(s->url, "http://127.0.0.1:30000");
  EXPECT_EQ(s->check, RestoreCheck::facts);
  EXPECT_EQ(s->restore_timeout.count(), 300);
  auto back = parse_campaign(resolved_yaml(*spec), "r.yaml", "/");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->arms[0].in_service);
  EXPECT_EQ(back->arms[0].in_service->url, s->url);
  auto health = with_in_service("{url: 'http://h:1', restore_check: health, restore_timeout_s: 20}");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->arms[0].in_service->check, RestoreCheck::health);
  EXPECT_EQ(health->arms[0].in_service->restore_timeout.count(), 20);
  EXPECT_FALSE(with_in_service("{}").has_value()) << "url is required";
}

TEST(InService, BadValuesNameFileLineAndColumn) {
  auto check = with_in_service("{url: 'http://h:1', restore_check: vram}");
  ASSERT_FALSE(check);
  EXPECT_NE(check.error().message.find("c.yaml:2:"), std::string::npos) << check.error().message;
  EXPECT_NE(check.error().message.find("restore_check must be facts or health"), std::string::npos);
  auto url = with_in_service("{url: 'localhost:30000'}");
  ASSERT_FALSE(url);
  EXPECT_NE(url.error().message.find("must be an http:// URL"), std::string::npos) << url.error().message;
  EXPECT_FALSE(with_in_service("{url: 'http://h:1', restore_timeout_s: 0}"));
}

results::ServiceSnapshot healthy(std::int64_t mrr, std::int64_t kv) {
  results::ServiceSnapshot s;
  s.healthy = true;
  s.health_status = 200;
  wire::ServerFacts f;
  f.engine = "sglang";
  f.model = "glm";
  f.max_running_requests = mrr;
  f.kv_pool_tokens = kv;
  s.facts = f;
  return s;
}

TEST(InService, RestoreDifferencesCompareHealthThenFacts) {
  InServiceSpec facts{"http://h:1", RestoreCheck::facts, std::chrono::seconds(5)};
  EXPECT_TRUE(restore_differences(facts, healthy(32, 1000), healthy(32, 1000)).empty());
  EXPECT_EQ(restore_differences(facts, healthy(32, 1000), healthy(16, 900)),
            (std::vector<std::string>{"kv_pool_tokens 1000 → 900", "max_running_requests 32 → 16"}));
  results::ServiceSnapshot down;
  down.error = "connection refused";
  const auto d = restore_differences(facts, healthy(32, 1000), down);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0], "not healthy after the after hook (connection refused)");
  InServiceSpec health{"http://h:1", RestoreCheck::health, std::chrono::seconds(5)};
  EXPECT_TRUE(restore_differences(health, healthy(32, 1000), healthy(16, 900)).empty()) << "health only";
  EXPECT_FALSE(restore_differences(health, healthy(32, 1000), down).empty());
}

}  // namespace
}  // namespace servebench::campaign
