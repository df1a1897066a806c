#include "servebench/sim/output_tokens.hpp"

#include "servebench/sim/seeded_rng.hpp"

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

OutputPlan::OutputPlan(const Tokenizer& tokenizer, std::uint64_t prompt_hash, const SamplingParams& params,
                       std::uint64_t fallback_seed, double eos_probability)
    : m_tokenizer(&tokenizer), m_params(&params), m_stream(prompt_hash), m_eos_probability(eos_probability) {
  if (params.temperature > 0) m_stream = mix64(m_stream, params.seed.value_or(fallback_seed));
}

std::int32_t OutputPlan::token(std::int64_t i) const {
  const auto& forced = m_params->forced_output;
  if (i < static_cast<std::int64_t>(forced.size())) return forced[static_cast<std::size_t>(i)];
  if (finish_after(i) == FinishReason::stop) return m_tokenizer->specials().eos;
  return m_tokenizer->word_id(mix64(m_stream ^ k_token_salt, static_cast<std::uint64_t>(i)));
}

FinishReason OutputPlan::finish_after(std::int64_t i) const {
  const auto& p = *m_params;
  const auto forced = static_cast<std::int64_t>(p.forced_output.size());
  if (i + 1 >= p.max_tokens) return FinishReason::length;
  if (p.ignore_eos) return FinishReason::none;
  if (forced > 0) return i + 1 >= forced ? FinishReason::stop : FinishReason::none;
  if (i + 1 <= p.min_tokens || m_eos_probability <= 0) return FinishReason::none;
  const double u = unit_interval(mix64(m_stream ^ k_eos_salt, static_cast<std::uint64_t>(i)));
  return u < m_eos_probability ? FinishReason::stop : FinishReason::none;
}

}  // namespace servebench::sim
