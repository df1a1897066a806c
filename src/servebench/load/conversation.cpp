#include "servebench/load/conversation.hpp"

#include <algorithm>
#include <map>
#include <random>

#include <boost/json.hpp>

namespace servebench::load {
namespace {

using util::ErrorKind;

void append_ids(std::vector<std::int32_t>& ids, std::int64_t n, const Vocabulary& vocab, std::mt19937_64& rng) {
  for (std::int64_t j = 0; j < n; ++j) ids.push_back(vocab.draw(rng));
}

}  // namespace

std::int64_t turn_input_len(const ConversationWorkload& w, std::int64_t turn) {
  return turn * w.user_len + (turn - 1) * w.reply_len;
}

util::Result<std::vector<Prompt>> make_conversation_prompts(const ConversationWorkload& w, const Vocabulary& vocab) {
  for (auto [v, what] : {std::pair{w.conversations, "conversations"}, std::pair{w.turns, "turns"},
                         std::pair{w.user_len, "user length"}, std::pair{w.reply_len, "reply length"}}) {
    if (auto ok = check_positive(v, what); !ok) return std::unexpected(ok.error());
  }
  if (w.think.count() < 0) return util::fail(ErrorKind::bad_input, "think time must not be negative");
  std::mt19937_64 rng(w.seed);
  const auto heads = distinct_heads(w.conversations, vocab, rng);
  std::vector<Prompt> prompts;
  prompts.reserve(static_cast<std::size_t>(w.conversations * w.turns));
  for (std::int64_t c = 0; c < w.conversations; ++c) {
    std::vector<std::int32_t> history = heads[static_cast<std::size_t>(c)];
    history.resize(std::min<std::size_t>(history.size(), static_cast<std::size_t>(w.user_len)));
    append_ids(history, w.user_len - std::ssize(history), vocab, rng);
    for (std::int64_t t = 1; t <= w.turns; ++t) {
      if (t > 1) {
        append_ids(history, w.reply_len, vocab, rng);  // stands for the reply of turn t−1
        append_ids(history, w.user_len, vocab, rng);
      }
      Prompt p;
      p.ids = history;
      p.input_tokens = std::ssize(history);
      p.output_tokens = w.reply_len;
      p.turn = static_cast<std::int32_t>(t);
      if (t > 1) {
        p.after = static_cast<std::uint32_t>(prompts.size() - 1);
        p.think = w.think;
      }
      prompts.push_back(std::move(p));
    }
  }
  return prompts;
}

double expected_hit_rate(const ConversationWorkload& w) {
  double cached = 0, total = 0;
  for (std::int64_t t = 1; t <= w.turns; ++t) {
    total += static_cast<double>(turn_input_len(w, t));
    if (t > 1) cached += static_cast<double>(turn_input_len(w, t - 1));
  }
  return total > 0 ? cached / total : 0;
}

double expected_hit_rate(const SharedPrefixWorkload& w) {
  const double p = static_cast<double>(w.prompts_per_group);
  const double s = static_cast<double>(w.system_len), q = static_cast<double>(w.question_len);
  return p > 0 && s + q > 0 ? (p - 1) * s / (p * (s + q)) : 0;
}

util::Result<void> check_conversations(std::span<const Prompt> prompts, bool open_loop) {
  std::vector<bool> followed(prompts.size(), false);
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    const auto& after = prompts[i].after;
    if (!after) continue;
    if (open_loop) {
      return util::fail(ErrorKind::bad_input, "multi-turn conversations run closed loop; drop the request rate");
    }
    if (*after >= i || followed[*after]) {
      return util::failf(ErrorKind::bad_input, "prompt {} follows prompt {}, which is not an earlier, unfollowed turn",
                         i, *after);
    }
    followed[*after] = true;
  }
  return {};
}

std::vector<std::int32_t> turns_of(std::span<const Prompt> prompts) {
  std::vector<std::int32_t> turns;
  turns.reserve(prompts.size());
  for (const Prompt& p : prompts) turns.push_back(p.turn);
  return turns;
}

std::vector<TurnLatency> ttft_by_turn(std::span<const RequestRecord> records, std::span<const std::int32_t> turns,
                                      stats::PercentileMethod method) {
  std::map<std::int32_t, std::vector<double>> by_turn;
  for (const RequestRecord& r : records) {
    if (r.index >= turns.size() || turns[r.index] == 0) continue;
    auto& values = by_turn[turns[r.index]];
    if (r.ok() && r.first_token) values.push_back(std::chrono::duration<double, std::milli>(*r.first_token - r.sent).count());
  }
  std::vector<TurnLatency> out;
  for (auto& [turn, values] : by_turn) {
    TurnLatency t{turn, std::ssize(values), 0, 0};
    if (!values.empty()) {
      std::sort(values.begin(), values.end());
      t.ttft_median_ms = stats::percentile_sorted(values, 50, method);
      t.ttft_p99_ms = stats::percentile_sorted(values, 99, method);
    }
    out.push_back(t);
  }
  return out;
}

boost::json::array to_json(std::span<const TurnLatency> turns) {
  boost::json::array a;
  for (const TurnLatency& t : turns) {
    a.push_back(boost::json::object{{"turn", t.turn}, {"requests", t.requests},
                                    {"ttft_median_ms", t.ttft_median_ms}, {"ttft_p99_ms", t.ttft_p99_ms}});
  }
  return a;
}

}  // namespace servebench::load
