#include "servebench/load/workload.hpp"

#include <set>

#include <gtest/gtest.h>

#include "fake_codec.hpp"
#include "fake_control.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::load {
namespace {

TEST(Workload, RandomIdsSplitWarmupFromMeasuredPromptsWithoutSharing) {
  testing::FakeControl control;
  WorkloadOptions o{.kind = DatasetKind::random_ids, .num_prompts = 8, .warmup_prompts = 2, .input_len = 16,
                    .output_len = 4};
  auto w = make_workload(o, control);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->prompts.size(), 8u);
  ASSERT_EQ(w->warmup.size(), 2u);
  std::set<std::int32_t> heads;
  for (const auto* set : {&w->prompts, &w->warmup}) {
    for (const Prompt& p : *set) {
      EXPECT_EQ(p.ids.size(), 16u);
      heads.insert(p.ids[0]);
    }
  }
  EXPECT_EQ(heads.size(), 10u);
}

TEST(Workload, DatasetNamesFollowSglang) {
  EXPECT_EQ(parse_dataset_kind("generated-shared-prefix"), DatasetKind::generated_shared_prefix);
  EXPECT_EQ(to_string(DatasetKind::random_ids), "random-ids");
  auto bad = parse_dataset_kind("mooncake");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--dataset-name"), std::string::npos);
}

TEST(Workload, FileDatasetsNeedAPath) {
  testing::FakeControl control;
  auto w = make_workload({.kind = DatasetKind::sharegpt}, control);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().message, "--dataset-name sharegpt needs --dataset-path");
}

TEST(Workload, CorpusWindowsContinueFromTheCursor) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "workload_corpus.txt";
  ASSERT_TRUE(util::write_file_atomic(path, "abcdefghijklmnopqrstuvwxyz"));
  testing::FakeCodec codec;
  testing::FakeControl control;
  control.text_codec = &codec;
  CorpusCursor cursor;
  WorkloadOptions o{.kind = DatasetKind::corpus, .path = path, .num_prompts = 2, .warmup_prompts = 1,
                    .input_len = 5, .output_len = 3, .cursor = &cursor};
  auto w = make_workload(o, control);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->warmup[0].ids.front(), 100);  // "ab" is one token
  EXPECT_EQ(w->prompts[0].ids.front(), 2 + ('g' - 'a'));  // the warmup window took [ab c d e f]
  EXPECT_EQ(cursor.offset, 15);
  EXPECT_FALSE(w->recycled);
  auto again = make_workload(o, control);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->recycled);  // 25 tokens: the second take wraps
}

TEST(Workload, SharedPrefixWarmupStaysOutsideTheGroups) {
  testing::FakeControl control;
  WorkloadOptions o{.kind = DatasetKind::generated_shared_prefix, .warmup_prompts = 3};
  o.shared_prefix = {.num_groups = 2, .prompts_per_group = 3, .system_len = 8, .question_len = 2, .output_len = 5};
  auto w = make_workload(o, control);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->prompts.size(), 6u);
  ASSERT_EQ(w->warmup.size(), 3u);
  EXPECT_EQ(w->warmup[0].ids.size(), 10u);
}

}  // namespace
}  // namespace servebench::load
