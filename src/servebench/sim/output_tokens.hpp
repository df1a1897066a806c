#pragma once
// What a simulated request generates, decided without regard to batching, timing or speculation:
// token i is a pure function of (prompt, i) at temperature 0 and also of the request seed above it,
// so the same prompt gives the same text under any load (the greedy-identity gate checks this).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

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
  // Both at once (the engine's per-token call): token(i), with finish_after(i) in `why`.
  std::int32_t next(std::int64_t i, FinishReason& why) const;

 private:
  const Tokenizer* m_tokenizer;
  const SamplingParams* m_params;
  std::uint64_t m_stream;
  double m_eos_probability;
};

// Order-sensitive hash of the prompt ids.
std::uint64_t hash_prompt(std::span<const std::int32_t> ids);
// hash_prompt of each prompt into out[i] (same size), several at once: the hash is one long chain of
// dependent multiplies per prompt, so interleaving prompts runs several times faster than one by one.
void hash_prompts(std::span<const std::span<const std::int32_t>> prompts, std::span<std::uint64_t> out);

}  // namespace servebench::sim
