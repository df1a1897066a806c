#include "servebench/sim/tokenizer.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include <fmt/format.h>

namespace servebench::sim {
namespace {

// Piece classes laid out one after another over the non-special ids (TokenLayout::of keeps a class
// only when it fits in the vocabulary).
constexpr std::int64_t k_bytes = 256;
constexpr std::int64_t k_letters123 = 26 + 26 * 26 + 26 * 26 * 26;  // 1-3 letters
constexpr std::int64_t k_letters23 = 26 * 26 + 26 * 26 * 26;        // 2-3 letters

// Common English words of four letters or more (shorter ones are already single letter pieces).
constexpr std::array<std::string_view, 120> k_word_table = {
    " that", " with", " have", " this", " will", " your", " from", " they", " know", " want", " been", " good",
    " much", " some", " time", " very", " when", " come", " here", " just", " like", " long", " make", " many",
    " more", " only", " over", " such", " take", " than", " them", " well", " were", " what", " where", " which",
    " their", " there", " these", " would", " about", " could", " other", " after", " first", " never", " under",
    " while", " should", " because", " through", " between", " before", " people", " number", " system",
    " model", " models", " server", " request", " requests", " token", " tokens", " answer", " question",
    " result", " results", " value", " values", " using", " based", " each", " into", " also", " most", " used",
    " same", " both", " does", " last", " next", " part", " data", " work", " year", " years", " world",
    " information", " example", " process", " problem", " different", " important", " during", " without",
    " within", " another", " however", " general", " public", " state", " small", " large", " point", " water",
    " house", " place", " right", " three", " still", " those", " every", " being", " group", " given",
    " found", " total", " level", " order", " light",
};
constexpr std::size_t k_max_word = 12;

const std::unordered_map<std::string_view, std::int64_t>& word_index() {
  static const auto map = [] {
    std::unordered_map<std::string_view, std::int64_t> m;
    for (std::size_t i = 0; i < k_word_table.size(); ++i) m.emplace(k_word_table[i], static_cast<std::int64_t>(i));
    return m;
  }();
  return map;
}

bool lower(char c) { return c >= 'a' && c <= 'z'; }
bool upper(char c) { return c >= 'A' && c <= 'Z'; }

// Index of a run of 1-3 lowercase letters within a 1-3 letter class (lengths laid out 1, 2, 3).
std::int64_t letters_index(std::string_view s) {
  std::int64_t v = 0;
  for (char c : s) v = v * 26 + (c - 'a');
  if (s.size() == 1) return v;
  if (s.size() == 2) return 26 + v;
  return 26 + 676 + v;
}

void append_letters(std::int64_t i, std::string& out) {
  int len = 1;
  if (i >= 26 + 676) { i -= 26 + 676; len = 3; }
  else if (i >= 26) { i -= 26; len = 2; }
  char buf[3];
  for (int k = len - 1; k >= 0; --k) { buf[k] = static_cast<char>('a' + i % 26); i /= 26; }
  out.append(buf, static_cast<std::size_t>(len));
}

std::size_t lower_run(std::string_view s, std::size_t from, std::size_t max) {
  std::size_t n = 0;
  while (from + n < s.size() && n < max && lower(s[from + n])) ++n;
  return n;
}

}  // namespace

TokenLayout TokenLayout::of(std::int64_t normal_count) {
  TokenLayout l;
  std::int64_t at = k_bytes;
  for (auto [slot, size] : {std::pair{&l.space_lower, k_letters123}, std::pair{&l.lower, k_letters23},
                            std::pair{&l.space_cap, k_letters123},
                            std::pair{&l.words, static_cast<std::int64_t>(k_word_table.size())}}) {
    if (at + size > normal_count) continue;  // does not fit: this class is not used
    *slot = at;
    at += size;
  }
  l.end = at;
  return l;
}

namespace {

// The normal index of the longest piece at text[i], and its length.
std::pair<std::int64_t, std::size_t> longest_piece(const TokenLayout& l, std::string_view text, std::size_t i) {
  const auto& words = word_index();
  for (std::size_t len = std::min(k_max_word, text.size() - i); l.words >= 0 && len >= 5; --len) {
    if (auto it = words.find(text.substr(i, len)); it != words.end()) return {l.words + it->second, len};
  }
  const char c = text[i];
  if (c == ' ' && i + 1 < text.size()) {
    if (const auto run = lower_run(text, i + 1, 3); run > 0 && l.space_lower >= 0) {
      return {l.space_lower + letters_index(text.substr(i + 1, run)), run + 1};
    }
    if (upper(text[i + 1]) && l.space_cap >= 0) {
      const auto run = lower_run(text, i + 2, 2);
      const std::int64_t cap = text[i + 1] - 'A';
      std::int64_t v = cap;
      for (std::size_t k = 0; k < run; ++k) v = v * 26 + (text[i + 2 + k] - 'a');
      const std::int64_t offset = run == 0 ? 0 : run == 1 ? 26 : 26 + 676;
      return {l.space_cap + offset + v, run + 2};
    }
  }
  if (lower(c) && l.lower >= 0) {
    if (const auto run = lower_run(text, i, 3); run >= 2) return {l.lower + letters_index(text.substr(i, run)) - 26, run};
  }
  return {static_cast<unsigned char>(c), 1};
}

}  // namespace

Tokenizer::Tokenizer(std::int64_t vocab_size, TokenIds specials) : m_vocab(vocab_size), m_specials(specials) {
  for (std::int32_t s : {specials.bos, specials.eos}) {
    if (s >= 0 && s < specials.special_start) m_low_specials.push_back(s);
  }
  std::sort(m_low_specials.begin(), m_low_specials.end());
  m_low_specials.erase(std::unique(m_low_specials.begin(), m_low_specials.end()), m_low_specials.end());
  m_normal_count = specials.special_start - static_cast<std::int64_t>(m_low_specials.size());
  SB_CHECK(m_normal_count > k_bytes);  // model cards guarantee it (model_card.cpp)
  m_layout = TokenLayout::of(m_normal_count);
  static_assert(k_word_table.size() == k_table_words && k_three_letters == 26 * 26 * 26);
  // word_id's two classes as runs of ids: inline when no special id falls inside either.
  const auto run = [&](std::int64_t first, std::int64_t size) {
    return id_of(first + size - 1) - id_of(first) == size - 1 ? id_of(first) : -1;
  };
  if (m_layout.words >= 0 && m_layout.space_lower >= 0) {
    const std::int32_t words = run(m_layout.words, static_cast<std::int64_t>(k_table_words));
    const std::int32_t letters = run(m_layout.space_lower + 26 + 676, static_cast<std::int64_t>(k_three_letters));
    if (words >= 0 && letters >= 0) {
      m_word_ids = words;
      m_letter_ids = letters;
    }
  }
}

bool Tokenizer::is_special(std::int32_t id) const {
  return id >= m_specials.special_start || id == m_specials.bos || id == m_specials.eos;
}

std::int32_t Tokenizer::id_of(std::int64_t n) const {
  std::int64_t id = n;
  for (std::int32_t s : m_low_specials) {
    if (id >= s) ++id;
  }
  return static_cast<std::int32_t>(id);
}

std::int64_t Tokenizer::normal_index(std::int32_t id) const {
  const auto below = std::lower_bound(m_low_specials.begin(), m_low_specials.end(), id) - m_low_specials.begin();
  return id - below;
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view text) const {
  std::vector<std::int32_t> ids;
  ids.reserve(text.size() / 3 + 1);
  for (std::size_t i = 0; i < text.size();) {
    const auto [n, len] = longest_piece(m_layout, text, i);
    ids.push_back(id_of(n));
    i += len;
  }
  return ids;
}

void Tokenizer::append_piece(std::int64_t n, std::string& out) const {
  const TokenLayout& l = m_layout;
  const auto in = [n](std::int64_t from, std::int64_t size) { return from >= 0 && n >= from && n < from + size; };
  if (n < k_bytes) { out.push_back(static_cast<char>(n)); return; }
  if (in(l.space_lower, k_letters123)) { out.push_back(' '); append_letters(n - l.space_lower, out); return; }
  if (in(l.lower, k_letters23)) { append_letters(n - l.lower + 26, out); return; }
  if (in(l.space_cap, k_letters123)) {
    std::int64_t i = n - l.space_cap;
    const std::size_t at = out.size();
    out.push_back(' ');
    int tail = 0;  // lowercase letters after the capital
    if (i >= 26 + 676) { i -= 26 + 676; tail = 2; }
    else if (i >= 26) { i -= 26; tail = 1; }
    std::string letters;
    append_letters(tail == 0 ? i % 26 : tail == 1 ? 26 + i : 26 + 676 + i, letters);
    letters[0] = static_cast<char>(letters[0] - 'a' + 'A');
    out.insert(at + 1, letters);
    return;
  }
  if (in(l.words, static_cast<std::int64_t>(k_word_table.size()))) { out.append(k_word_table[n - l.words]); return; }
  out.push_back(' ');  // synthetic word: base-26 spelling of the index, 4+ letters
  append_letters(26 + 676 + (n % 17576), out);
  out.push_back(static_cast<char>('a' + (n / 17576) % 26));
}

util::Result<void> Tokenizer::decode_into(std::span<const std::int32_t> ids, SpecialTokens mode, std::string& out) const {
  for (std::int32_t id : ids) {
    if (id < 0 || id >= m_vocab) return util::failf(util::ErrorKind::bad_input, "token id {} is outside the vocabulary", id);
    if (is_special(id)) {
      if (mode == SpecialTokens::render) out += fmt::format("<|special:{}|>", id);
      continue;
    }
    append_piece(normal_index(id), out);
  }
  return {};
}

util::Result<std::string> Tokenizer::decode(std::span<const std::int32_t> ids, SpecialTokens mode) const {
  std::string out;
  out.reserve(ids.size() * 4);
  if (auto r = decode_into(ids, mode, out); !r) return std::unexpected(r.error());
  return out;
}

std::int32_t Tokenizer::word_id_mapped(std::uint64_t h) const {
  // Half table words, half " " + three letters: reads like text and stays far from special ids. A
  // vocabulary too small for those classes uses its synthetic words, else its printable bytes.
  const TokenLayout& l = m_layout;
  const bool word = (h & 1) != 0 && l.words >= 0;
  if (word || l.space_lower < 0) {
    if (l.words >= 0) return id_of(l.words + static_cast<std::int64_t>((h >> 1) % k_word_table.size()));
    if (m_normal_count > l.end) return id_of(l.end + static_cast<std::int64_t>((h >> 1) % (m_normal_count - l.end)));
    return id_of(' ' + 1 + static_cast<std::int64_t>((h >> 1) % 94));  // '!'..'~'
  }
  return id_of(l.space_lower + 26 + 676 + static_cast<std::int64_t>((h >> 1) % 17576));
}

}  // namespace servebench::sim
