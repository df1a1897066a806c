#include "servebench/sim/tokenizer.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

namespace {

Tokenizer llama() { return Tokenizer(128256, TokenIds{128000, 128009, 128000}); }

const char* k_english =
    "The quick brown fox jumps over the lazy dog. Inference engineers deploy large models on many GPUs, and "
    "they must answer which launch command users should run on this hardware, and how fast it is. The "
    "benchmark campaign replicates a published report on another machine with the same chapter structure.";

}  // namespace

TEST(Tokenizer, RoundTripsEveryPrintableAsciiString) {
  const Tokenizer t = llama();
  std::string all;
  for (char c = 32; c < 127; ++c) all.push_back(c);
  for (const std::string& s : {all, std::string(k_english), std::string("  double  spaces\tand\nnewlines "), std::string()}) {
    const auto ids = t.encode(s);
    EXPECT_EQ(t.decode(ids, SpecialTokens::skip).value(), s);
  }
}

TEST(Tokenizer, EnglishAveragesThreeToFiveCharactersPerToken) {
  const Tokenizer t = llama();
  const std::string text = k_english;
  const double per_token = static_cast<double>(text.size()) / static_cast<double>(t.encode(text).size());
  EXPECT_GE(per_token, 3.0);
  EXPECT_LE(per_token, 5.0);
}

TEST(Tokenizer, EveryNonSpecialIdDecodesToText) {
  const Tokenizer t = llama();
  for (std::int32_t id = 0; id < 128000; id += 7) {
    const std::int32_t one[] = {id};
    const auto text = t.decode(one, SpecialTokens::skip);
    ASSERT_TRUE(text);
    EXPECT_FALSE(text->empty()) << id;
  }
}

TEST(Tokenizer, SpecialsAreSkippedOrRendered) {
  const Tokenizer t = llama();
  const std::int32_t ids[] = {128000, 1000, 128009};
  EXPECT_EQ(t.decode(ids, SpecialTokens::skip)->find("special"), std::string::npos);
  EXPECT_NE(t.decode(ids, SpecialTokens::render)->find("<|special:128009|>"), std::string::npos);
  const std::int32_t bad[] = {128256};
  EXPECT_FALSE(t.decode(bad, SpecialTokens::skip));
}

TEST(Tokenizer, LowSpecialIdsAreSkippedByEncoding) {
  const Tokenizer t(129280, TokenIds{0, 1, 128000});  // DeepSeek: BOS 0, EOS 1
  const auto ids = t.encode("hello there, general");
  for (auto id : ids) EXPECT_FALSE(t.is_special(id)) << id;
  EXPECT_EQ(t.decode(ids, SpecialTokens::skip).value(), "hello there, general");
}

TEST(Tokenizer, WordIdsAreNeverSpecial) {
  const Tokenizer t(129280, TokenIds{0, 1, 128000});
  for (std::uint64_t h = 0; h < 5000; ++h) EXPECT_FALSE(t.is_special(t.word_id(h * 0x9e3779b97f4a7c15ULL)));
}

TEST(Tokenizer, SmallVocabulariesUseTheClassesThatFit) {
  const TokenLayout l32k = TokenLayout::of(32000);
  EXPECT_EQ(l32k.space_lower, 256);
  EXPECT_EQ(l32k.lower, -1);  // 18,534 + 18,252 > 32,000
  EXPECT_EQ(l32k.space_cap, -1);
  EXPECT_EQ(l32k.words, 256 + 18278);
  for (const std::int64_t vocab : {32000, 5000, 300}) {
    const Tokenizer t(vocab, TokenIds{-1, static_cast<std::int32_t>(vocab - 1), static_cast<std::int32_t>(vocab - 1)});
    const auto ids = t.encode(k_english);
    for (auto id : ids) ASSERT_LT(id, vocab - 1) << vocab;
    EXPECT_EQ(t.decode(ids, SpecialTokens::skip).value(), k_english) << vocab;
    for (std::int32_t id = 0; id < vocab - 1; ++id) ASSERT_TRUE(t.decode(std::vector<std::int32_t>{id}, SpecialTokens::skip));
    for (std::uint64_t h = 0; h < 200; ++h) ASSERT_FALSE(t.is_special(t.word_id(h))) << vocab;
  }
  // A 32K vocabulary still tokenizes English into fewer tokens than bytes.
  const Tokenizer t(32000, TokenIds{1, 2, 31990});
  EXPECT_LT(t.encode(k_english).size() * 2, std::string(k_english).size());
}
