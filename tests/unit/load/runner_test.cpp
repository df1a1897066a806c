#include "servebench/load/runner.hpp"

#include <gtest/gtest.h>

#include "fake_control.hpp"
#include "fake_server.hpp"

namespace servebench::load {
namespace {

using namespace std::chrono_literals;

class FixedWall final : public util::WallClock {
 public:
  util::WallTime now() const noexcept override { return util::WallTime{std::chrono::seconds(1'800'000'000)}; }
};

RunSpec spec_for(const std::string& url, int n) {
  RunSpec s;
  s.backend = wire::Backend::vllm;
  s.base_url = url;
  for (int i = 0; i < n; ++i) {
    Prompt p;
    p.ids = {10 + i, 20, 30, 40};
    p.input_tokens = 4;
    p.output_tokens = 3;
    s.prompts.push_back(p);
  }
  s.max_concurrency = 2;
  s.threads = 2;
  s.request.timeout = 10s;
  return s;
}

TEST(Runner, RunsWarmupAndMeasuredPhaseAndReadsTheCounterWindow) {
  testing::FakeServer server;
  testing::FakeControl control;
  control.model = "ok";  // the fake server's well-behaved mode
  static const FixedWall wall;
  RunSpec spec = spec_for(server.base_url(), 6);
  spec.warmup_prompts = {spec.prompts[0]};
  spec.flush_cache = true;
  spec.wall_clock = &wall;
  spec.metrics.gpus = 2;
  auto r = run(spec, control);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(server.requests(), 7);
  EXPECT_EQ(r->echo.model, "ok");
  EXPECT_EQ(r->metrics.completed, 6);
  EXPECT_EQ(r->metrics.total_output_tokens, 18);
  EXPECT_EQ(r->metrics.total_input_tokens, 24);
  EXPECT_EQ(r->metrics.output_mismatches, 0);
  EXPECT_TRUE(r->cache.flushed);
  EXPECT_EQ(control.flushes, 1);
  EXPECT_EQ(control.windows_begun, 1);
  EXPECT_EQ(control.windows_ended, 1);
  EXPECT_EQ(r->cache.hit_rate, 0.0);
  EXPECT_EQ(r->accept_length, 2.5);
  EXPECT_EQ(r->accept_length_source, "counter_delta");
  EXPECT_EQ(r->started_at, wall.now());
  EXPECT_EQ(r->server_facts.at("engine"), "fake");
  EXPECT_TRUE(r->metrics.total_throughput_per_gpu.has_value());
  EXPECT_LE(server.max_in_flight(), 2);
}

TEST(Runner, UnreachableServerFailsBeforeSending) {
  testing::FakeControl control;
  control.healthy = false;
  auto r = run(spec_for("http://127.0.0.1:9", 2), control);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, util::ErrorKind::unreachable);
}

TEST(Runner, InvalidSpecsNameTheFlag) {
  testing::FakeControl control;
  RunSpec spec = spec_for("http://127.0.0.1:9", 2);
  spec.max_concurrency = 0;
  auto r = run(spec, control);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("--max-concurrency"), std::string::npos);
  spec = spec_for("https://example", 2);
  EXPECT_FALSE(validate(spec));
  spec = spec_for("http://127.0.0.1:9", 0);
  EXPECT_NE(validate(spec).error().message.find("--num-prompts"), std::string::npos);
}

TEST(Runner, ChatBackendNeedsATokenizerForTokenIdPrompts) {
  testing::FakeControl control;
  RunSpec spec = spec_for("http://127.0.0.1:9", 1);
  spec.backend = wire::Backend::vllm_chat;
  auto r = run(spec, control);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("/tokenize"), std::string::npos);
}

TEST(Runner, EveryWarmupFailingStopsTheRun) {
  testing::FakeServer server;
  testing::FakeControl control;
  control.model = "http500";
  RunSpec spec = spec_for(server.base_url(), 2);
  spec.warmup_prompts = {spec.prompts[0]};
  auto r = run(spec, control);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("every warmup request failed"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace servebench::load
