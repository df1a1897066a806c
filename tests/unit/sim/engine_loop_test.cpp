#include "servebench/sim/engine_loop.hpp"

#include <gtest/gtest.h>
#include <time.h>

#include <boost/json.hpp>
#include <future>

#include "fake_stream.hpp"
#include "support/wait_for.hpp"

using namespace servebench;
using namespace servebench::sim;
using namespace std::chrono_literals;
using sim::test::FakeStream;

namespace {

struct Harness {
  explicit Harness(double time_scale = 0, SimConfig config = {})
      : loop(make_deployment(config).value(), options(time_scale)) {
    tokenizer.emplace(Tokenizer::for_model(loop.deployment().model));
    context.tokenizer = &*tokenizer;
    context.model = "m";
    loop.start();
  }
  static LoopOptions options(double time_scale) {
    LoopOptions o;
    o.time_scale = time_scale;
    return o;
  }

  // A streamed completion with ignore_eos of `max_tokens` tokens over a `prompt_len`-token prompt.
  std::pair<std::shared_ptr<Generation>, std::shared_ptr<FakeStream>> completion(std::int64_t max_tokens,
                                                                                 std::int64_t prompt_len = 64,
                                                                                 std::int32_t salt = 0,
                                                                                 wire::ServerRoute route = {}) {
    RequestPlan plan;
    plan.route = route;
    plan.stream = true;
    plan.include_usage = true;
    SimRequest r;
    for (std::int64_t i = 0; i < prompt_len; ++i) r.prompt.push_back(static_cast<std::int32_t>(1000 + salt * 7 + i));
    r.sampling.max_tokens = max_tokens;
    r.sampling.ignore_eos = true;
    plan.items.push_back(std::move(r));
    auto stream = std::make_shared<FakeStream>();
    auto g = std::make_shared<Generation>(std::move(plan), stream, context, "cmpl", 0);
    stream->on_close([this, weak = std::weak_ptr<Generation>(g)] { loop.cancel(weak); });
    loop.submit(g);
    return {g, stream};
  }

  bool flush(util::TimePoint deadline = {}) {
    std::promise<bool> done;
    auto result = done.get_future();
    loop.flush(deadline, [&done](bool ok) { done.set_value(ok); });
    EXPECT_EQ(result.wait_for(10s), std::future_status::ready);
    return result.get();
  }

  bool eventually(const std::function<bool(const ServerStats&)>& predicate) {
    // Polling published stats: the loop offers no notification.
    return servebench::testing::wait_until([&] { return predicate(loop.stats()); }, 10s, 1ms);
  }

  EngineLoop loop;
  std::optional<Tokenizer> tokenizer;
  GenerationContext context;
};

std::int64_t usage_completion_tokens(const FakeStream& s) {
  const auto events = s.events();
  EXPECT_GE(events.size(), 2u);
  return boost::json::parse(events[events.size() - 2]).at("usage").at("completion_tokens").as_int64();
}

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

TEST(EngineLoop, StreamsExactlyMaxTokensWithIgnoreEos) {
  Harness h;
  auto [g, stream] = h.completion(57);
  ASSERT_TRUE(stream->wait_closed());
  EXPECT_EQ(usage_completion_tokens(*stream), 57);
  EXPECT_EQ(stream->events().back(), "[DONE]");
  EXPECT_TRUE(h.eventually([](const ServerStats& s) { return s.counters.generation_tokens_total == 57; }));
}

TEST(EngineLoop, ManyConcurrentGenerationsAllComplete) {
  Harness h;
  std::vector<std::shared_ptr<FakeStream>> streams;
  for (int i = 0; i < 300; ++i) streams.push_back(h.completion(20, 32, i).second);
  for (const auto& s : streams) {
    ASSERT_TRUE(s->wait_closed());
    EXPECT_EQ(usage_completion_tokens(*s), 20);
  }
  EXPECT_TRUE(h.eventually([](const ServerStats& s) { return s.counters.requests_finished_total == 300; }));
}

TEST(EngineLoop, StopStringEndsTheRequestAsFinished) {
  Harness h;
  RequestPlan plan;
  plan.stream = true;
  SimRequest r;
  r.prompt = {5, 6, 7, 8};
  r.sampling.max_tokens = 100'000;
  r.sampling.ignore_eos = true;
  r.sampling.temperature = 0;
  plan.items.push_back(r);
  plan.stop = {" "};  // every generated word starts with a space: the first token matches
  auto stream = std::make_shared<FakeStream>();
  h.loop.submit(std::make_shared<Generation>(std::move(plan), stream, h.context, "cmpl", 0));
  ASSERT_TRUE(stream->wait_closed());
  EXPECT_TRUE(h.eventually([](const ServerStats& s) {
    return s.counters.requests_finished_total == 1 && s.counters.prompt_tokens_total == 4 && s.counters.running == 0;
  }));
  EXPECT_LT(h.loop.stats().counters.generation_tokens_total, 100);
}

TEST(EngineLoop, RefusedRequestAnswers400) {
  Harness h;
  auto [g, stream] = h.completion(1'000'000'000);
  ASSERT_TRUE(stream->wait_closed());
  ASSERT_TRUE(stream->response());
  EXPECT_EQ(stream->response()->status, 400);
  EXPECT_NE(stream->response()->body.find("maximum context length"), std::string::npos);
}

TEST(EngineLoop, DisconnectFreesTheSlotAndKv) {
  SimConfig config;
  config.disable_radix_cache = true;  // nothing stays cached: freed KV shows as zero use
  Harness h(1.0, config);             // real time: the request is still running when the client leaves
  auto [g, stream] = h.completion(100'000, 512);
  ASSERT_TRUE(stream->wait_sends(2));
  EXPECT_EQ(h.loop.stats().counters.running, 1);
  stream->disconnect();
  EXPECT_TRUE(
      h.eventually([](const ServerStats& s) { return s.counters.running == 0 && s.counters.used_tokens == 0; }));
}

TEST(EngineLoop, FlushFailsWhileBusyAndSucceedsWhenIdle) {
  Harness h(1.0);
  auto [g, stream] = h.completion(100'000);
  ASSERT_TRUE(stream->wait_sends(1));
  EXPECT_FALSE(h.flush());
  stream->disconnect();
  EXPECT_TRUE(h.flush(std::chrono::steady_clock::now() + 10s));  // waits for the cancel to land
}

TEST(EngineLoop, RealTimeFollowsTheVirtualClockWithoutDrift) {
  constexpr double k_scale = 0.5;
  Harness h(k_scale);
  h.context.stamp = StampEvents::on;
  const auto sent = std::chrono::steady_clock::now();
  auto [g, stream] = h.completion(150, 64, 0, wire::ServerRoute::generate);
  ASSERT_TRUE(stream->wait_closed());
  const auto events = stream->events();
  ASSERT_GE(events.size(), 2u);
  const auto last = boost::json::parse(events[events.size() - 2]).as_object();
  const double e2e_s = last.at("meta_info").at("e2e_latency").to_number<double>();
  const auto emitted = util::TimePoint{std::chrono::nanoseconds(last.at("sb_emit_ns").as_int64())};
  const double real_s = std::chrono::duration<double>(emitted - sent).count();
  EXPECT_GT(e2e_s, 0.3);                       // 150 decode steps of an 8B model: about a second of virtual time
  EXPECT_GE(real_s, e2e_s * k_scale - 0.001);  // never early
  EXPECT_LT(real_s, e2e_s * k_scale + 0.5);    // and not late beyond scheduling noise
}

TEST(EngineLoop, IdleLoopDoesNotSpin) {
  Harness h(1.0);
  const double before = process_cpu_seconds();
  std::this_thread::sleep_for(300ms);  // measuring idle CPU, not synchronising
  EXPECT_LT(process_cpu_seconds() - before, 0.05);
}

TEST(EngineLoop, StatsReportReadyOnlyWhileRunning) {
  Harness h;
  EXPECT_TRUE(h.loop.stats().ready);
  h.loop.stop();
  EXPECT_FALSE(h.loop.stats().ready);
}
