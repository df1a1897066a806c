#include "servebench/campaign/point_window.hpp"

#include <gtest/gtest.h>

#include "servebench/http/blocking_client.hpp"
#include "unit/campaign/fake_engine_server.hpp"

namespace servebench::campaign {
namespace {

using testing::FakeEngineServer;

// The load generator's side of the seam, which PointWindow wraps; only what the window passes on.
class InnerControl final : public load::ServerControl {
 public:
  util::Result<void> check_health() override { return {}; }
  util::Result<std::string> first_model() override { return std::string("m"); }
  util::Result<void> flush_cache() override {
    ++inner_flushes;
    return {};
  }
  void begin_window() override {}
  load::CounterWindow end_window() override { return {}; }
  boost::json::value server_info() override { return nullptr; }
  boost::json::object facts() override { return {}; }
  std::optional<load::Vocabulary> vocabulary() override { return std::nullopt; }
  load::TextCodec* codec() override { return nullptr; }
  int inner_flushes = 0;
};

struct Fixture {
  FakeEngineServer server;
  std::unique_ptr<engines::EngineAdapter> adapter = engines::make_adapter(engines::Engine::sim);
  std::unique_ptr<http::BlockingClient> client = std::move(*http::BlockingClient::create(server.base_url()));
  InnerControl inner;
};

TEST(PointWindow, FlushesThenMeasuresTheHitRateOverWarmupAndMeasuredRequests) {
  Fixture f;
  f.server.set_counters(1000, 10);
  PointWindow w(f.inner, *f.adapter, *f.client, Flush::before_point);
  ASSERT_TRUE(w.flush_cache());
  EXPECT_EQ(f.server.flushes.load(), 1);
  EXPECT_EQ(f.inner.inner_flushes, 0) << "the protocol flushes through its own adapter";
  f.server.set_counters(1500, 15);  // warmup: 500 prompt tokens, 5 cached
  w.begin_window();
  f.server.set_counters(3000, 20);  // measured: 1500 more, 5 cached
  const auto window = w.end_window();
  ASSERT_TRUE(w.hit_rate().has_value()) << w.hit_rate_error();
  EXPECT_DOUBLE_EQ(*w.hit_rate(), 10.0 / 2000.0);
  EXPECT_EQ(window.hit_rate, w.hit_rate());
  EXPECT_TRUE(w.flushed());
  EXPECT_GT(w.overhead().count(), 0);
}

TEST(PointWindow, WithoutColdCacheItOnlySnapshots) {
  Fixture f;
  PointWindow w(f.inner, *f.adapter, *f.client, Flush::never);
  ASSERT_TRUE(w.flush_cache());
  EXPECT_EQ(f.server.flushes.load(), 0);
  EXPECT_FALSE(w.flushed());
  f.server.set_counters(100, 0);
  w.begin_window();
  w.end_window();
  EXPECT_EQ(w.hit_rate(), 0.0);
}

TEST(PointWindow, AnUnknownHitRateSaysWhy) {
  Fixture f;
  PointWindow w(f.inner, *f.adapter, *f.client, Flush::before_point);
  ASSERT_TRUE(w.flush_cache());
  w.begin_window();
  w.end_window();  // no prompt token counted in between
  EXPECT_FALSE(w.hit_rate().has_value());
  EXPECT_FALSE(w.hit_rate_error().empty());

  PointWindow never_started(f.inner, *f.adapter, *f.client, Flush::before_point);
  never_started.end_window();
  EXPECT_EQ(never_started.hit_rate_error(), "no counter snapshot before the point");
}

TEST(PointWindow, PassesEverythingElseThrough) {
  Fixture f;
  PointWindow w(f.inner, *f.adapter, *f.client, Flush::before_point);
  EXPECT_EQ(*w.first_model(), "m");
  EXPECT_TRUE(w.check_health());
  EXPECT_EQ(w.codec(), nullptr);
}

}  // namespace
}  // namespace servebench::campaign
