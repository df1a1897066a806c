#include "servebench/load/vocabulary.hpp"

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

TEST(Vocabulary, ExcludesSpecialTokensInsideTheRange) {
  auto v = Vocabulary::make(10, {9, 0, 2, 15, 2});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->ordinary_count(), 7);  // 10 ids minus {0, 2, 9}; 15 is outside, 2 is listed twice
  EXPECT_EQ(v->ordinary(0), 1);
  EXPECT_EQ(v->ordinary(1), 3);
  EXPECT_EQ(v->ordinary(6), 8);
}

TEST(Vocabulary, DrawsOnlyOrdinaryIds) {
  auto v = Vocabulary::make(6, {0, 5});
  ASSERT_TRUE(v);
  std::mt19937_64 rng(7);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 2000; ++i) ++seen[static_cast<std::size_t>(v->draw(rng))];
  EXPECT_EQ(seen[0], 0);
  EXPECT_EQ(seen[5], 0);
  for (int id = 1; id <= 4; ++id) EXPECT_GT(seen[static_cast<std::size_t>(id)], 400) << id;
}

TEST(Vocabulary, RejectsEmptyVocabularies) {
  EXPECT_FALSE(Vocabulary::make(0, {}));
  EXPECT_FALSE(Vocabulary::make(2, {0, 1}));
}

}  // namespace
}  // namespace servebench::load
