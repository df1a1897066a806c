#pragma once
// Workloads whose prompts share prefixes on purpose, and what a prefix cache should make of them
// (docs/metrics.md "Shared prefixes and conversations"). Multi-turn conversations: each turn's
// prompt is the previous turn's prompt, then `reply_len` ids standing for the assistant's reply,
// then `user_len` new user ids; a conversation runs closed loop (a turn is sent only after the
// previous one ended, plus the think time). Token ids, so every length is exact.
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include <boost/json/array.hpp>

#include "servebench/load/prompt.hpp"
#include "servebench/load/request_record.hpp"
#include "servebench/load/synthetic_workload.hpp"
#include "servebench/load/vocabulary.hpp"
#include "servebench/stats/summary.hpp"

namespace servebench::load {

struct ConversationWorkload {
  std::int64_t conversations = 16, turns = 4;
  std::int64_t user_len = 128;   // new user ids per turn
  std::int64_t reply_len = 128;  // the requested output per turn, and the reply's length in the history
  std::chrono::nanoseconds think{0};
  std::uint64_t seed = 0;
};

// Input length of turn t (1-based): t·user_len + (t−1)·reply_len.
std::int64_t turn_input_len(const ConversationWorkload& w, std::int64_t turn);

// conversations × turns prompts, conversation by conversation, turn t linked to turn t−1 (`after`).
// Conversations start with distinct ids, so they share nothing. Fails (bad_input) on a
// non-positive count or length, or a negative think time.
util::Result<std::vector<Prompt>> make_conversation_prompts(const ConversationWorkload& w, const Vocabulary& vocab);

// The prefix-cache hit rate (cached ÷ prompt tokens) a radix cache with page size 1 reaches when
// it keeps everything it saw: a turn finds the previous turn's prompt (the server cached the reply
// it generated, not the stand-in ids, so the match ends there).
double expected_hit_rate(const ConversationWorkload& w);
// Generated shared prefix: every prompt of a group but the first finds the group's system prompt,
// (P−1)·S ÷ (P·(S+Q)); exact when each group's first prompt is prefilled before its siblings
// arrive (closed loop at a concurrency well below num_prompts).
double expected_hit_rate(const SharedPrefixWorkload& w);

// Checks the `after` links of a run's prompts: each points to an earlier prompt, at most one
// prompt follows another, and the run is closed loop (bad_input otherwise).
util::Result<void> check_conversations(std::span<const Prompt> prompts, bool open_loop);

struct TurnLatency {
  std::int32_t turn = 0;
  std::int64_t requests = 0;  // completed requests of this turn with a TTFT
  double ttft_median_ms = 0, ttft_p99_ms = 0;
};
// TTFT per turn index over completed requests; turns[i] is record i's turn (0 entries ignored).
std::vector<TurnLatency> ttft_by_turn(std::span<const RequestRecord> records, std::span<const std::int32_t> turns,
                                      stats::PercentileMethod method);
std::vector<std::int32_t> turns_of(std::span<const Prompt> prompts);
// [{"turn": 1, "requests": 8, "ttft_median_ms": …, "ttft_p99_ms": …}, …]
boost::json::array to_json(std::span<const TurnLatency> turns);

}  // namespace servebench::load
