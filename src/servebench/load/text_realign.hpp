#pragma once
// Exact input length for backends that take only text (chat routes, servers without token-id
// prompts): token ids → text through the server's detokenizer, then re-tokenized and corrected
// until the server counts exactly the planned number of tokens (as vLLM's /tokenize realignment).
#include <cstdint>
#include <random>

#include "servebench/load/prompt.hpp"
#include "servebench/load/text_codec.hpp"
#include "servebench/load/vocabulary.hpp"

namespace servebench::load {

inline constexpr int k_realign_max_rounds = 8;

// Replaces p.ids by p.text whose server token count equals p.ids.size() (Specials::add). When the
// count has not converged after k_realign_max_rounds, keeps the closest text and sets
// p.input_tokens to its real count. Fails when the codec fails.
util::Result<void> realign_to_text(Prompt& p, TextCodec& codec, const Vocabulary& vocab, std::mt19937_64& rng);

}  // namespace servebench::load
