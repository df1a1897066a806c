#include "servebench/load/conversation.hpp"

#include <set>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

Vocabulary vocab() {
  auto v = Vocabulary::make(5000, {0, 1, 2});
  EXPECT_TRUE(v);
  return *v;
}

TEST(Conversation, TurnsGrowByReplyAndUserTokensExactly) {
  const ConversationWorkload w{.conversations = 5, .turns = 3, .user_len = 100, .reply_len = 50, .seed = 3};
  auto prompts = make_conversation_prompts(w, vocab());
  ASSERT_TRUE(prompts);
  ASSERT_EQ(prompts->size(), 15u);
  std::set<std::int32_t> heads;
  for (std::size_t c = 0; c < 5; ++c) {
    const Prompt* prev = nullptr;
    for (std::size_t t = 0; t < 3; ++t) {
      const Prompt& p = (*prompts)[c * 3 + t];
      const std::size_t expected = 100 * (t + 1) + 50 * t;  // 100, 250, 400
      EXPECT_EQ(p.ids.size(), expected);
      EXPECT_EQ(p.input_tokens, static_cast<std::int64_t>(expected));
      EXPECT_EQ(p.output_tokens, 50);
      EXPECT_EQ(p.turn, static_cast<std::int32_t>(t + 1));
      if (prev == nullptr) {
        EXPECT_FALSE(p.after.has_value());
        heads.insert(p.ids[0]);
      } else {
        ASSERT_TRUE(p.after.has_value());
        EXPECT_EQ(*p.after, c * 3 + t - 1);
        EXPECT_TRUE(std::equal(prev->ids.begin(), prev->ids.end(), p.ids.begin())) << "turn extends the history";
      }
      prev = &p;
    }
  }
  EXPECT_EQ(heads.size(), 5u) << "conversations share no prefix";
  EXPECT_EQ(turn_input_len(w, 3), 400);
}

TEST(Conversation, ThinkTimeIsCarriedOnFollowingTurns) {
  const ConversationWorkload w{.conversations = 2, .turns = 2, .user_len = 4, .reply_len = 4,
                               .think = std::chrono::milliseconds(250), .seed = 1};
  auto prompts = make_conversation_prompts(w, vocab());
  ASSERT_TRUE(prompts);
  EXPECT_EQ((*prompts)[0].think.count(), 0);
  EXPECT_EQ((*prompts)[1].think, std::chrono::milliseconds(250));
}

TEST(Conversation, BadShapesAreRefused) {
  EXPECT_FALSE(make_conversation_prompts({.conversations = 0}, vocab()));
  EXPECT_FALSE(make_conversation_prompts({.turns = 0}, vocab()));
  EXPECT_FALSE(make_conversation_prompts({.think = std::chrono::seconds(-1)}, vocab()));
}

TEST(Conversation, ExpectedHitRatesByHand) {
  // Turns of 100, 250, 400 tokens: turns 2 and 3 find 100 and 250 cached: 350 / 750.
  EXPECT_NEAR(expected_hit_rate(ConversationWorkload{.turns = 3, .user_len = 100, .reply_len = 50}), 350.0 / 750.0,
              1e-12);
  EXPECT_EQ(expected_hit_rate(ConversationWorkload{.turns = 1, .user_len = 100, .reply_len = 50}), 0.0);
  // 4 prompts per group of 300 + 100 tokens: 3 of 4 find 300 cached: 900 / 1600.
  EXPECT_NEAR(expected_hit_rate(SharedPrefixWorkload{.num_groups = 7, .prompts_per_group = 4, .system_len = 300,
                                                     .question_len = 100}),
              900.0 / 1600.0, 1e-12);
}

TEST(Conversation, LinksMustPointBackOnceAndRunClosedLoop) {
  std::vector<Prompt> p(3);
  p[1].after = 0;
  p[2].after = 1;
  EXPECT_TRUE(check_conversations(p, false));
  EXPECT_FALSE(check_conversations(p, true)) << "open loop";
  p[2].after = 0;
  EXPECT_FALSE(check_conversations(p, false)) << "two turns follow one";
  p[2].after = 2;
  EXPECT_FALSE(check_conversations(p, false)) << "follows itself";
}

TEST(Conversation, TtftByTurnOverCompletedRequests) {
  std::vector<RequestRecord> records(5);
  const std::vector<std::int32_t> turns{1, 2, 1, 2, 2};
  const int ttft_ms[] = {10, 40, 30, 20, 0};
  for (std::uint32_t i = 0; i < 5; ++i) {
    records[i].index = i;
    records[i].sent = std::chrono::milliseconds(100);
    records[i].first_token = std::chrono::milliseconds(100 + ttft_ms[i]);
  }
  records[4].error = RequestError::http_status;  // failed: not counted
  const auto t = ttft_by_turn(records, turns, stats::PercentileMethod::nearest_rank);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].turn, 1);
  EXPECT_EQ(t[0].requests, 2);
  EXPECT_DOUBLE_EQ(t[0].ttft_median_ms, 10);  // nearest rank: ⌈0.5·2⌉ = 1st of {10, 30}
  EXPECT_DOUBLE_EQ(t[0].ttft_p99_ms, 30);
  EXPECT_EQ(t[1].turn, 2);
  EXPECT_EQ(t[1].requests, 2);
  EXPECT_DOUBLE_EQ(t[1].ttft_median_ms, 20);
  EXPECT_DOUBLE_EQ(t[1].ttft_p99_ms, 40);
}

}  // namespace
}  // namespace servebench::load
