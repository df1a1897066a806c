#pragma once
// What a simulated request generates, decided without regard to batching, timing or speculation:
// token i is a pure function of (prompt, i) at temperature 0 and also of the request seed above it,
// so the same prompt gives the same text under any load (the greedy-identity gate checks this).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "servebench/sim/seeded_rng.hpp"
#include "servebench/sim/tokenizer.hpp"

namespace servebench::sim {

enum class FinishReason { none, length, stop, abort };
std::string_view to_string(FinishReason r);  // "", "length", "stop", "abort"

struct SamplingParams {
  std::int64_t max_tokens = 16;
  std::int64_t min_tokens = 0;
  bool ignore_eos = false;
  double temperature = 0;
  std::optional<std::uint64_t> seed;           // used when temperature > 0
  std::vector<std::int32_t> forced_output;     // emitted verbatim first (oracle answers)
};

// Generation of one request: which token comes at which position and where it stops.
class OutputPlan {
 public:
  // `prompt_hash` identifies the prompt (hash_prompt); `fallback_seed` is used at temperature > 0 when
  // the request has no seed. `eos_probability` is the per-token stop chance past min_tokens.
  OutputPlan(const Tokenizer& tokenizer, std::uint64_t prompt_hash, const SamplingParams& params,
             std::uint64_t fallback_seed, double eos_probability);

  // Token at output position `i` (0-based).
  std::int32_t token(std::int64_t i) const;
  // After emitting position `i`, does generation stop, and why (none = continue).
  FinishReason finish_after(std::int64_t i) const;
  // Both at once (the engine's per-token call): token(i), with finish_after(i) in `why`. For the common
  // plan (nothing forced, no EOS draw: a word at every position up to max_tokens) the words are drawn
  // a block ahead, where the draws are independent of one another and overlap.
  std::int32_t next(std::int64_t i, FinishReason& why) {
    if (!m_plain) return next_drawn(i, why);
    why = i + 1 >= m_max_tokens ? FinishReason::length : FinishReason::none;
    if (static_cast<std::uint64_t>(i - m_ahead_from) >= m_ahead_count) draw_ahead(i);
    return m_ahead[static_cast<std::size_t>(i - m_ahead_from)];
  }

 private:
  static constexpr std::size_t k_ahead = 32;
  std::int32_t next_drawn(std::int64_t i, FinishReason& why) const;
  // The word at position i when nothing forced or stopped it: mix64(stream ^ token salt, i).
  std::int32_t word_at(std::int64_t i) const { return m_tokenizer->word_id(word_hash(i)); }
  std::uint64_t word_hash(std::int64_t i) const { return mix64(m_token_key ^ position_mix(static_cast<std::uint64_t>(i))); }
  void draw_ahead(std::int64_t from);

  const Tokenizer* m_tokenizer;
  const SamplingParams* m_params;
  std::uint64_t m_stream;
  std::uint64_t m_token_key;   // m_stream with the token salt
  std::int64_t m_max_tokens;
  bool m_plain;                // no forced output, and generation stops only at max_tokens
  double m_eos_probability;
  std::int64_t m_ahead_from = 0;   // m_ahead holds the words at positions m_ahead_from + [0, m_ahead_count)
  std::uint64_t m_ahead_count = 0;
  std::array<std::int32_t, k_ahead> m_ahead{};
};

// Order-sensitive hash of the prompt ids.
std::uint64_t hash_prompt(std::span<const std::int32_t> ids);
// hash_prompt of each prompt into out[i] (same size), several at once: the hash is one long chain of
// dependent multiplies per prompt, so interleaving prompts runs several times faster than one by one.
void hash_prompts(std::span<const std::span<const std::int32_t>> prompts, std::span<std::uint64_t> out);

}  // namespace servebench::sim
