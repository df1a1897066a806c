// A fleet in virtual time (`plan --replicas N --router R`): the routers' decisions, one global
// clock across the engines, the cache-hit effect of prefix-aware routing on shared prefixes, and
// multi-turn conversations on the driver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>

#include "servebench/load/conversation.hpp"
#include "servebench/load/engine_control.hpp"
#include "servebench/load/synthetic_workload.hpp"
#include "servebench/plan/router.hpp"
#include "servebench/plan/virtual_load.hpp"
#include "servebench/sim/deployment.hpp"

namespace servebench::plan {
namespace {

struct Fleet4 {
  std::vector<std::unique_ptr<sim::Engine>> owned;
  std::vector<sim::Engine*> engines;
  explicit Fleet4(int n = 4) {
    sim::SimConfig c;  // Llama 3.1 8B on one H200 per replica
    for (int i = 0; i < n; ++i) {
      owned.push_back(std::make_unique<sim::Engine>(sim::make_deployment(c).value()));
      engines.push_back(owned.back().get());
    }
  }
};

std::vector<load::Prompt> shared_prefix_prompts() {
  load::SharedPrefixWorkload w;
  w.num_groups = 8;
  w.prompts_per_group = 16;
  w.system_len = 2048;
  w.question_len = 128;
  w.output_len = 32;
  w.seed = 7;
  return load::make_shared_prefix_prompts(w, load::safe_vocabulary(128256)).value();
}

struct Outcome {
  VirtualPhase phase;
  double hit_rate = 0, mean_ttft_ms = 0;
  std::vector<int> per_replica;
};

Outcome run_fleet(RouterKind kind, const std::vector<load::Prompt>& prompts, std::int64_t c) {
  Fleet4 f;
  Router router(kind, 4);
  VirtualLoad l;
  l.prompts = prompts;
  l.max_concurrency = c;
  Outcome o;
  o.phase = run_virtual(Fleet{f.engines, &router}, l).value();
  double cached = 0, input = 0, ttft = 0;
  o.per_replica.assign(4, 0);
  for (const auto& r : o.phase.records) {
    EXPECT_TRUE(r.ok()) << r.error_message;
    cached += static_cast<double>(r.cached_tokens.value_or(0));
    input += static_cast<double>(r.input_tokens());
    ttft += util::to_ms(*r.first_token - r.sent);
    EXPECT_GE(r.replica, 0);
    EXPECT_LT(r.replica, 4);
    o.per_replica[static_cast<std::size_t>(r.replica)] += 1;
  }
  o.hit_rate = cached / input;
  o.mean_ttft_ms = ttft / static_cast<double>(o.phase.records.size());
  return o;
}

TEST(Router, RoundRobinTakesTheReplicasInTurn) {
  Router r(RouterKind::round_robin, 3);
  const std::int64_t busy[] = {9, 0, 0};
  std::vector<int> got;
  for (int i = 0; i < 6; ++i) got.push_back(r.route({}, busy).replica);
  EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 0, 1, 2}));
}

TEST(Router, LeastOutstandingTakesTheIdlestReplicaAndTheLowestIndexOnATie) {
  Router r(RouterKind::least_outstanding, 4);
  const std::int64_t a[] = {3, 1, 0, 0};
  EXPECT_EQ(r.route({}, a).replica, 2);
  const std::int64_t b[] = {2, 2, 2, 2};
  EXPECT_EQ(r.route({}, b).replica, 0);
}

TEST(Router, PrefixAwareFollowsASharedPrefixUnlessTheFleetIsOutOfBalance) {
  Router r(RouterKind::prefix_aware, 2);
  std::vector<std::int32_t> a(256), b(256), c(256);
  std::iota(a.begin(), a.end(), 1000);
  std::iota(c.begin(), c.end(), 5000);
  b = a;
  std::iota(b.begin() + 200, b.end(), 9000);  // shares its first 200 tokens with a
  const std::int64_t even[] = {0, 0};
  const auto first = r.route(a, even);
  EXPECT_EQ(first.replica, 0);
  EXPECT_EQ(first.reason, "least-outstanding");
  const std::int64_t busier[] = {5, 0};
  const auto follow = r.route(b, busier);
  EXPECT_EQ(follow.replica, 0) << "the shared prefix outweighs a small imbalance";
  EXPECT_EQ(follow.reason, "prefix");
  EXPECT_EQ(follow.matched_tokens, 192);  // whole 16-token blocks of the 200 shared
  const auto other = r.route(c, busier);
  EXPECT_EQ(other.replica, 1);
  EXPECT_EQ(other.matched_tokens, 0);
  const std::int64_t overloaded[] = {40, 2};
  const auto balance = r.route(b, overloaded);
  EXPECT_EQ(balance.replica, 1);
  EXPECT_EQ(balance.reason, "balance");
  r.reset();
  EXPECT_EQ(r.route(a, busier).reason, "least-outstanding") << "a flush forgets what was sent";
}

TEST(Fleet, PrefixAwareRoutingHitsTheSharedPrefixesThatRoundRobinScatters) {
  const auto prompts = shared_prefix_prompts();
  const auto rr = run_fleet(RouterKind::round_robin, prompts, 16);
  const auto pa = run_fleet(RouterKind::prefix_aware, prompts, 16);
  std::printf("round-robin: hit rate %.3f, mean TTFT %.1f ms; prefix-aware: hit rate %.3f, mean TTFT %.1f ms\n",
              rr.hit_rate, rr.mean_ttft_ms, pa.hit_rate, pa.mean_ttft_ms);
  // Round robin prefills each group's system prompt on every replica; prefix-aware on one.
  EXPECT_GT(pa.hit_rate, rr.hit_rate + 0.1) << pa.hit_rate << " vs " << rr.hit_rate;
  EXPECT_LT(pa.mean_ttft_ms, 0.9 * rr.mean_ttft_ms) << pa.mean_ttft_ms << " vs " << rr.mean_ttft_ms;
  EXPECT_EQ(rr.per_replica, (std::vector<int>{32, 32, 32, 32}));
  for (const auto& r : pa.phase.records) {
    if (r.route == "prefix") {
      EXPECT_GE(r.route_matched_tokens, 2048 - Router::k_block_tokens);
    }
  }
}

TEST(Fleet, LeastOutstandingNeverPicksABusierReplicaWhileOneIsIdle) {
  const auto prompts = shared_prefix_prompts();
  const auto lo = run_fleet(RouterKind::least_outstanding, prompts, 6);
  const auto& recs = lo.phase.records;
  int decisions_with_an_idle_replica = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    // In flight per replica when request i was routed: routed before it (earlier, or at the same
    // time with a lower index: closed-loop sends go out in index order) and not ended by then.
    std::vector<int> busy(4, 0);
    for (std::size_t j = 0; j < recs.size(); ++j) {
      const bool before = recs[j].sent < recs[i].sent || (recs[j].sent == recs[i].sent && j < i);
      if (before && recs[j].done > recs[i].sent) busy[static_cast<std::size_t>(recs[j].replica)] += 1;
    }
    const int least = *std::min_element(busy.begin(), busy.end());
    EXPECT_EQ(busy[static_cast<std::size_t>(recs[i].replica)], least) << "request " << i;
    if (least == 0) decisions_with_an_idle_replica += 1;
  }
  EXPECT_GT(decisions_with_an_idle_replica, 0);
}

TEST(Fleet, OneGlobalClockOrdersTheReplicasEvents) {
  const auto prompts = shared_prefix_prompts();
  const auto rr = run_fleet(RouterKind::round_robin, prompts, 8);
  // Closed loop at 8 over the fleet: never more than 8 in flight at any send, across replicas.
  for (const auto& r : rr.phase.records) {
    const auto in_flight = std::count_if(rr.phase.records.begin(), rr.phase.records.end(),
                                         [&](const auto& q) { return q.sent <= r.sent && r.sent < q.done; });
    EXPECT_LE(in_flight, 8);
  }
  // Every follow-up went out exactly when some request (on any replica) ended.
  std::vector<util::Nanos> ends;
  for (const auto& r : rr.phase.records) ends.push_back(r.done);
  for (const auto& r : rr.phase.records) {
    if (r.sent.count() > 0) {
      EXPECT_NE(std::find(ends.begin(), ends.end(), r.sent), ends.end());
    }
  }
}

TEST(Fleet, ConversationTurnsFollowTheirPreviousTurnAfterTheThinkTime) {
  load::ConversationWorkload w;
  w.conversations = 3;
  w.turns = 3;
  w.user_len = 64;
  w.reply_len = 16;
  w.think = std::chrono::milliseconds(40);
  w.seed = 3;
  const auto prompts = load::make_conversation_prompts(w, load::safe_vocabulary(128256)).value();
  Fleet4 f(2);
  Router router(RouterKind::prefix_aware, 2);
  VirtualLoad l;
  l.prompts = prompts;
  l.max_concurrency = 2;
  const auto phase = run_virtual(Fleet{f.engines, &router}, l).value();
  ASSERT_EQ(phase.records.size(), 9u);
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    const auto& r = phase.records[i];
    EXPECT_TRUE(r.ok()) << r.error_message;
    if (!prompts[i].after) continue;
    const auto& prev = phase.records[*prompts[i].after];
    EXPECT_EQ(r.sent, prev.done + std::chrono::milliseconds(40)) << i;
    // From turn 3 on, the conversation so far is most of the prompt: the router follows it. (Turn 2
    // shares only turn 1's prompt, less than half of its own, so it goes to the idlest replica.)
    if (prompts[i].turn < 3) continue;
    EXPECT_EQ(r.replica, prev.replica) << i;
    EXPECT_EQ(r.route, "prefix") << i;
    EXPECT_GT(r.cached_tokens.value_or(0), 0) << i;
  }
  // The third conversation waits for a slot: its first turn starts when another conversation ended.
  std::vector<util::Nanos> heads;
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    if (!prompts[i].after) heads.push_back(phase.records[i].sent);
  }
  std::sort(heads.begin(), heads.end());
  EXPECT_EQ(heads[0].count(), 0);
  EXPECT_EQ(heads[1].count(), 0);
  EXPECT_GT(heads[2].count(), 0);
}

}  // namespace
}  // namespace servebench::plan
