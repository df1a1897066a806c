#include "servebench/load/text_realign.hpp"

#include <gtest/gtest.h>

#include "fake_codec.hpp"

namespace servebench::load {
namespace {

TEST(TextRealign, ReachesTheExactServerCountDespiteMerges) {
  testing::FakeCodec codec;
  auto vocab = Vocabulary::make(28, {0, 1});  // letters 2..27 only
  ASSERT_TRUE(vocab);
  std::mt19937_64 rng(3);
  // "abab…" detokenizes to text whose tokens merge pairwise, so the first count is far off.
  for (int len : {2, 9, 40}) {
    Prompt p;
    for (int i = 0; i < len; ++i) p.ids.push_back(i % 2 == 0 ? 2 : 3);
    ASSERT_TRUE(realign_to_text(p, codec, *vocab, rng));
    EXPECT_TRUE(p.ids.empty());
    auto counted = codec.tokenize(p.text, Specials::add);
    ASSERT_TRUE(counted);
    EXPECT_EQ(std::ssize(*counted), len) << p.text;
    EXPECT_EQ(p.input_tokens, len);
  }
}

TEST(TextRealign, KeepsTheClosestTextWhenTheTargetCannotBeReached) {
  testing::FakeCodec codec;
  auto vocab = Vocabulary::make(28, {0, 1});
  ASSERT_TRUE(vocab);
  std::mt19937_64 rng(4);
  Prompt p;
  p.ids = {5};  // one token, but the server always adds BOS: two is the least it can count
  ASSERT_TRUE(realign_to_text(p, codec, *vocab, rng));
  EXPECT_EQ(p.input_tokens, 2);
  EXPECT_LE(codec.tokenize_calls, k_realign_max_rounds);
}

}  // namespace
}  // namespace servebench::load
