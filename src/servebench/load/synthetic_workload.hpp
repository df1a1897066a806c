#pragma once
// Synthetic token-id workloads with exact lengths and no tokenizer: `random`, `random-ids` and
// `generated-shared-prefix`. Every prompt starts with a token no other prompt of the set starts
// with (a prefix cache cannot serve one prompt from another), except where a shared prefix is the
// point of the workload.
#include <cstdint>
#include <random>
#include <vector>

#include "servebench/load/prompt.hpp"
#include "servebench/load/vocabulary.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

// How ids after the first are chosen: `random` draws each id; `sequential` continues
// (first + j) through the ordinary ids, like sglang's random-ids (cheap, deterministic).
enum class IdPattern { random, sequential };

struct RandomWorkload {
  IdPattern pattern = IdPattern::random;
  std::int64_t num_prompts = 0;
  std::int64_t input_len = 0, output_len = 0;
  double range_ratio = 1.0;  // sglang semantics: each length uniform in [max(floor(r*L), 1), L]
  std::uint64_t seed = 0;
};

struct SharedPrefixWorkload {  // sglang's generated-shared-prefix defaults
  std::int64_t num_groups = 64, prompts_per_group = 16;
  std::int64_t system_len = 2048, question_len = 128, output_len = 256;
  std::uint64_t seed = 0;
};

// A workload count or length that must be > 0: the error names `what`.
util::Result<void> check_positive(std::int64_t v, const char* what);

// A length drawn with sglang's range-ratio semantics (uniform in [max(floor(r*L), 1), L]).
std::int64_t draw_length(std::int64_t length, double range_ratio, std::mt19937_64& rng);

// `count` first tokens, pairwise distinct while count <= ordinary ids; beyond that each
// returned head has two tokens and the pairs are distinct.
std::vector<std::vector<std::int32_t>> distinct_heads(std::int64_t count, const Vocabulary& vocab,
                                                      std::mt19937_64& rng);

// num_prompts prompts; fails (bad_input) on non-positive counts or lengths, or a ratio outside [0, 1].
util::Result<std::vector<Prompt>> make_random_prompts(const RandomWorkload& w, const Vocabulary& vocab);
// num_groups × prompts_per_group prompts (system prefix shared inside a group), shuffled.
util::Result<std::vector<Prompt>> make_shared_prefix_prompts(const SharedPrefixWorkload& w, const Vocabulary& vocab);

}  // namespace servebench::load
