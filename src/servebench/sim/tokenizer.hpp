#pragma once
// The simulator's deterministic tokenizer (served on /tokenize and /detokenize). Scheme, in order of
// the non-special ids: 256 byte tokens; " " + 1-3 lowercase letters; 2-3 lowercase letters;
// " " + a capital + 0-2 lowercase letters; a table of common English words (" about", " model", ...);
// every remaining id is a synthetic word. Encoding is greedy longest match (table words first), so
// detokenize(tokenize(x)) == x for any byte string and English averages ~3.5 characters per token.
// Special ids (BOS, EOS, ids >= special_start) come from the model card. Any vocabulary with more
// than 256 non-special ids works: a piece class is used only when it fits whole (TokenLayout), so a
// 32K vocabulary has bytes, " " + 1-3 letters and the word table, and ids past them are synthetic
// words. Pure and thread-safe.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "servebench/sim/model_card.hpp"
#include "servebench/util/result.hpp"

namespace servebench::sim {

enum class SpecialTokens { skip, render };

// First normal index of each piece class, -1 when the class does not fit; `end` = first synthetic word.
struct TokenLayout {
  std::int64_t space_lower = -1, lower = -1, space_cap = -1, words = -1, end = 256;
  static TokenLayout of(std::int64_t normal_count);
};  // detokenize: drop special ids, or write "<|special:ID|>"

class Tokenizer {
 public:
  Tokenizer(std::int64_t vocab_size, TokenIds specials);
  static Tokenizer for_model(const ModelCard& m) { return Tokenizer(m.vocab_size, m.tokens); }

  std::vector<std::int32_t> encode(std::string_view text) const;
  // Appends to `out` (no allocation beyond its growth); fails on an id outside the vocabulary.
  util::Result<void> decode_into(std::span<const std::int32_t> ids, SpecialTokens mode, std::string& out) const;
  util::Result<std::string> decode(std::span<const std::int32_t> ids, SpecialTokens mode) const;

  bool is_special(std::int32_t id) const;
  // A word-like (space-led) id chosen by `h`; used for generated text. Never special. Inline when both
  // word classes are in the vocabulary and each is one run of ids (no special id inside): the
  // engine draws every output token through it.
  std::int32_t word_id(std::uint64_t h) const { return words_inline() ? word_id_inline(h) : word_id_mapped(h); }
  // True when word_id takes the inline path below (the word classes are contiguous id ranges), so a
  // caller drawing many words can test once.
  bool words_inline() const { return m_word_ids >= 0; }
  std::int32_t word_id_inline(std::uint64_t h) const {
    // Both candidates and a mask, not a branch: the low bit of a hash is a coin toss, which a branch
    // predictor gets wrong half the time.
    const std::int32_t word = m_word_ids + static_cast<std::int32_t>((h >> 1) % k_table_words);
    const std::int32_t letters = m_letter_ids + static_cast<std::int32_t>((h >> 1) % k_three_letters);
    const std::int32_t pick_word = -static_cast<std::int32_t>(h & 1);
    return (word & pick_word) | (letters & ~pick_word);
  }
  std::int64_t vocab_size() const { return m_vocab; }
  TokenIds specials() const { return m_specials; }

 private:
  static constexpr std::uint64_t k_table_words = 120;      // the common-word table
  static constexpr std::uint64_t k_three_letters = 17576;  // " " + three lowercase letters

  std::int32_t word_id_mapped(std::uint64_t h) const;
  std::int32_t id_of(std::int64_t normal_index) const;  // normal index -> vocabulary id (skips specials)
  std::int64_t normal_index(std::int32_t id) const;
  void append_piece(std::int64_t normal_index, std::string& out) const;

  std::int64_t m_vocab;
  TokenIds m_specials;
  std::vector<std::int32_t> m_low_specials;  // special ids below special_start, ascending
  std::int64_t m_normal_count = 0;
  TokenLayout m_layout;
  std::int32_t m_word_ids = -1, m_letter_ids = -1;  // first id of each word class when word_id is inline
};

}  // namespace servebench::sim
