#include "servebench/load/corpus.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "fake_codec.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::load {
namespace {

std::vector<std::int32_t> iota_tokens(int n) {
  std::vector<std::int32_t> t(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = i;
  return t;
}

TEST(Corpus, WindowsAreConsecutiveAndNeverReusedAcrossTakes) {
  const Corpus c = Corpus::from_tokens("sha256:x", iota_tokens(100));
  CorpusCursor cursor;
  auto first = c.take(cursor, 3, 10, 5);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->prompts[0].ids.front(), 0);
  EXPECT_EQ(first->prompts[2].ids.back(), 29);
  EXPECT_EQ(first->prompts[1].output_tokens, 5);
  EXPECT_FALSE(first->recycled);
  auto second = c.take(cursor, 2, 10, 5);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->prompts[0].ids.front(), 30);
  EXPECT_EQ(cursor.offset, 50);
  EXPECT_EQ(cursor.corpus, "sha256:x");
}

TEST(Corpus, WrapsAndSaysSoWhenUsedUp) {
  const Corpus c = Corpus::from_tokens("sha256:x", iota_tokens(25));
  CorpusCursor cursor;
  auto take = c.take(cursor, 3, 10, 1);
  ASSERT_TRUE(take);
  EXPECT_TRUE(take->recycled);
  EXPECT_EQ(take->prompts[2].ids.front(), 0);  // 20..29 does not fit in 25 tokens
  EXPECT_EQ(cursor.passes, 1);
}

TEST(Corpus, RejectsAForeignCursorAndOversizedWindows) {
  const Corpus c = Corpus::from_tokens("sha256:x", iota_tokens(25));
  CorpusCursor foreign{.corpus = "sha256:y"};
  EXPECT_FALSE(c.take(foreign, 1, 5, 1));
  CorpusCursor cursor;
  EXPECT_FALSE(c.take(cursor, 1, 26, 1));
}

TEST(Corpus, CursorRoundTripsThroughJson) {
  const CorpusCursor c{.corpus = "sha256:abc", .offset = 1234, .passes = 1};
  auto back = cursor_from_json(to_json(c));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->corpus, c.corpus);
  EXPECT_EQ(back->offset, 1234);
  EXPECT_EQ(back->passes, 1);
  EXPECT_FALSE(cursor_from_json(boost::json::object{{"schema", "servebench.point/1"}}));
}

TEST(Corpus, TokenizesOnceAndReadsTheCacheAfterwards) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "corpus_cache_test";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(util::make_dirs(dir));
  const auto path = dir / "corpus.txt";
  ASSERT_TRUE(util::write_file_atomic(path, "abc de\nfab"));
  testing::FakeCodec codec;
  auto a = Corpus::load(path, codec);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->size(), 6);  // "ab" merges: [ab c d e f ab]
  const int calls = codec.tokenize_calls;
  EXPECT_TRUE(std::filesystem::exists(corpus_cache_path(path)));
  auto b = Corpus::load(path, codec);
  ASSERT_TRUE(b);
  EXPECT_EQ(codec.tokenize_calls, calls);
  EXPECT_EQ(b->id(), a->id());
  EXPECT_EQ(b->size(), 6);
  // Changed text: the cache no longer matches and the corpus is tokenized again.
  ASSERT_TRUE(util::write_file_atomic(path, "zzz"));
  auto c = Corpus::load(path, codec);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->size(), 3);
  EXPECT_NE(c->id(), a->id());
}

}  // namespace
}  // namespace servebench::load
