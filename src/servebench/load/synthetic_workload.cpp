#include "servebench/load/synthetic_workload.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace servebench::load {
namespace {

// Fills ids[from, length) after the head with the chosen pattern.
void fill_tail(std::vector<std::int32_t>& ids, std::size_t from, IdPattern pattern, const Vocabulary& vocab,
               std::mt19937_64& rng) {
  const auto n = static_cast<std::int64_t>(vocab.ordinary_count());
  std::int64_t k = pattern == IdPattern::sequential ? rng() % static_cast<std::uint64_t>(n) : 0;
  for (std::size_t j = from; j < ids.size(); ++j) {
    ids[j] = pattern == IdPattern::random ? vocab.draw(rng) : vocab.ordinary(static_cast<std::int32_t>(k++ % n));
  }
}

std::vector<std::int32_t> ids_with_head(const std::vector<std::int32_t>& head, std::int64_t length, IdPattern pattern,
                                        const Vocabulary& vocab, std::mt19937_64& rng) {
  std::vector<std::int32_t> ids(static_cast<std::size_t>(length));
  const std::size_t h = std::min(head.size(), ids.size());
  std::copy_n(head.begin(), h, ids.begin());
  fill_tail(ids, h, pattern, vocab, rng);
  return ids;
}

}  // namespace

util::Result<void> check_positive(std::int64_t v, const char* what) {
  if (v <= 0) return util::failf(util::ErrorKind::bad_input, "{} must be positive, got {}", what, v);
  return {};
}

std::int64_t draw_length(std::int64_t length, double range_ratio, std::mt19937_64& rng) {
  const std::int64_t low = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(range_ratio * length)));
  if (low >= length) return length;
  std::uniform_int_distribution<std::int64_t> pick(low, length);
  return pick(rng);
}

std::vector<std::vector<std::int32_t>> distinct_heads(std::int64_t count, const Vocabulary& vocab,
                                                      std::mt19937_64& rng) {
  const std::int64_t n = vocab.ordinary_count();
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  for (std::int32_t k = 0; k < n; ++k) order[static_cast<std::size_t>(k)] = vocab.ordinary(k);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::vector<std::int32_t>> heads;
  heads.reserve(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
  const bool pairs = count > n;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int32_t first = order[static_cast<std::size_t>(i % n)];
    if (!pairs) {
      heads.push_back({first});
    } else {
      // Round r of the permutation pairs each first token with the r-th ordinary id.
      heads.push_back({first, vocab.ordinary(static_cast<std::int32_t>((i / n) % n))});
    }
  }
  return heads;
}

util::Result<std::vector<Prompt>> make_random_prompts(const RandomWorkload& w, const Vocabulary& vocab) {
  for (auto [v, what] : {std::pair{w.num_prompts, "--num-prompts"}, std::pair{w.input_len, "--random-input-len"},
                         std::pair{w.output_len, "--random-output-len"}}) {
    if (auto ok = check_positive(v, what); !ok) return std::unexpected(ok.error());
  }
  if (!(w.range_ratio >= 0.0 && w.range_ratio <= 1.0)) {
    return util::failf(util::ErrorKind::bad_input, "--random-range-ratio must be in [0, 1], got {}", w.range_ratio);
  }
  std::mt19937_64 rng(w.seed);
  const auto heads = distinct_heads(w.num_prompts, vocab, rng);
  std::vector<Prompt> prompts(static_cast<std::size_t>(w.num_prompts));
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    Prompt& p = prompts[i];
    p.input_tokens = draw_length(w.input_len, w.range_ratio, rng);
    p.output_tokens = draw_length(w.output_len, w.range_ratio, rng);
    p.ids = ids_with_head(heads[i], p.input_tokens, w.pattern, vocab, rng);
  }
  return prompts;
}

util::Result<std::vector<Prompt>> make_shared_prefix_prompts(const SharedPrefixWorkload& w, const Vocabulary& vocab) {
  for (auto [v, what] : {std::pair{w.num_groups, "--gsp-num-groups"}, std::pair{w.prompts_per_group, "--gsp-prompts-per-group"},
                         std::pair{w.system_len, "--gsp-system-prompt-len"}, std::pair{w.question_len, "--gsp-question-len"},
                         std::pair{w.output_len, "--gsp-output-len"}}) {
    if (auto ok = check_positive(v, what); !ok) return std::unexpected(ok.error());
  }
  std::mt19937_64 rng(w.seed);
  // Group prefixes and questions get distinct heads from one pool, so no question starts like a
  // system prompt and no two groups share a prefix.
  const auto heads = distinct_heads(w.num_groups * (1 + w.prompts_per_group), vocab, rng);
  std::vector<Prompt> prompts;
  prompts.reserve(static_cast<std::size_t>(w.num_groups * w.prompts_per_group));
  std::size_t next_head = 0;
  for (std::int64_t g = 0; g < w.num_groups; ++g) {
    const auto system = ids_with_head(heads[next_head++], w.system_len, IdPattern::random, vocab, rng);
    for (std::int64_t q = 0; q < w.prompts_per_group; ++q) {
      Prompt p;
      p.ids = system;
      const auto question = ids_with_head(heads[next_head++], w.question_len, IdPattern::random, vocab, rng);
      p.ids.insert(p.ids.end(), question.begin(), question.end());
      p.input_tokens = w.system_len + w.question_len;
      p.output_tokens = w.output_len;
      prompts.push_back(std::move(p));
    }
  }
  std::shuffle(prompts.begin(), prompts.end(), rng);
  return prompts;
}

}  // namespace servebench::load
