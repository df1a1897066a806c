#include "servebench/sim/output_tokens.hpp"

#include <algorithm>

#include "servebench/sim/seeded_rng.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {
namespace {

constexpr std::uint64_t k_token_salt = 0x746f6b656eULL;  // "token"
constexpr std::uint64_t k_eos_salt = 0x656f73ULL;        // "eos"

}  // namespace

std::string_view to_string(FinishReason r) {
  switch (r) {
    case FinishReason::none: return "";
    case FinishReason::length: return "length";
    case FinishReason::stop: return "stop";
    case FinishReason::abort: return "abort";
  }
  return "";
}

std::uint64_t hash_prompt(std::span<const std::int32_t> ids) {
  std::uint64_t h = mix64(ids.size());
  for (std::int32_t id : ids) h = mix64(h ^ static_cast<std::uint32_t>(id));
  return h;
}

namespace {

// hash_prompt of `Lanes` prompts in lockstep up to the shortest, then each to its end.
template <std::size_t Lanes>
void hash_lanes(const std::span<const std::int32_t>* prompts, std::uint64_t* out) {
  std::uint64_t h[Lanes];
  std::size_t common = prompts[0].size();
  for (std::size_t l = 0; l < Lanes; ++l) {
    h[l] = mix64(prompts[l].size());
    common = std::min(common, prompts[l].size());
  }
  for (std::size_t j = 0; j < common; ++j) {
    for (std::size_t l = 0; l < Lanes; ++l) h[l] = mix64(h[l] ^ static_cast<std::uint32_t>(prompts[l][j]));
  }
  for (std::size_t l = 0; l < Lanes; ++l) {
    for (std::int32_t id : prompts[l].subspan(common)) h[l] = mix64(h[l] ^ static_cast<std::uint32_t>(id));
    out[l] = h[l];
  }
}

}  // namespace

void hash_prompts(std::span<const std::span<const std::int32_t>> prompts, std::span<std::uint64_t> out) {
  SB_CHECK(prompts.size() == out.size());
  std::size_t i = 0;
  for (; i + 8 <= prompts.size(); i += 8) hash_lanes<8>(prompts.data() + i, out.data() + i);
  if (i + 4 <= prompts.size()) {
    hash_lanes<4>(prompts.data() + i, out.data() + i);
    i += 4;
  }
  if (i + 2 <= prompts.size()) {
    hash_lanes<2>(prompts.data() + i, out.data() + i);
    i += 2;
  }
  if (i < prompts.size()) out[i] = hash_prompt(prompts[i]);
}

OutputPlan::OutputPlan(const Tokenizer& tokenizer, std::uint64_t prompt_hash, const SamplingParams& params,
                       std::uint64_t fallback_seed, double eos_probability)
    : m_tokenizer(&tokenizer), m_params(&params), m_stream(prompt_hash), m_max_tokens(params.max_tokens),
      m_plain(params.forced_output.empty() && (params.ignore_eos || eos_probability <= 0)),
      m_eos_probability(eos_probability) {
  if (params.temperature > 0) m_stream = mix64(m_stream, params.seed.value_or(fallback_seed));
  m_token_key = m_stream ^ k_token_salt;
}

std::int32_t OutputPlan::token(std::int64_t i) const {
  const auto& forced = m_params->forced_output;
  if (i < static_cast<std::int64_t>(forced.size())) return forced[static_cast<std::size_t>(i)];
  if (finish_after(i) == FinishReason::stop) return m_tokenizer->specials().eos;
  return word_at(i);
}

std::int32_t OutputPlan::next_drawn(std::int64_t i, FinishReason& why) const {
  why = finish_after(i);
  const auto& forced = m_params->forced_output;
  if (i < static_cast<std::int64_t>(forced.size())) return forced[static_cast<std::size_t>(i)];
  if (why == FinishReason::stop) return m_tokenizer->specials().eos;
  return word_at(i);
}

void OutputPlan::draw_ahead(std::int64_t from) {
  // Up to max_tokens only: a short request draws no words it will not emit.
  const auto count = static_cast<std::size_t>(std::clamp<std::int64_t>(m_max_tokens - from, 1, k_ahead));
  if (m_tokenizer->words_inline()) {  // word_at's test, once per block
    for (std::size_t k = 0; k < count; ++k) {
      m_ahead[k] = m_tokenizer->word_id_inline(word_hash(from + static_cast<std::int64_t>(k)));
    }
  } else {
    for (std::size_t k = 0; k < count; ++k) m_ahead[k] = word_at(from + static_cast<std::int64_t>(k));
  }
  m_ahead_from = from;
  m_ahead_count = count;
}

FinishReason OutputPlan::finish_after(std::int64_t i) const {
  const auto& p = *m_params;
  const auto forced = static_cast<std::int64_t>(p.forced_output.size());
  if (i + 1 >= p.max_tokens) return FinishReason::length;
  if (p.ignore_eos) return FinishReason::none;
  if (forced > 0) return i + 1 >= forced ? FinishReason::stop : FinishReason::none;
  if (i + 1 <= p.min_tokens || m_eos_probability <= 0) return FinishReason::none;
  const double u = unit_interval(mix64(m_stream ^ k_eos_salt ^ position_mix(static_cast<std::uint64_t>(i))));
  return u < m_eos_probability ? FinishReason::stop : FinishReason::none;
}

}  // namespace servebench::sim
