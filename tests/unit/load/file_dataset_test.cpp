#include "servebench/load/file_dataset.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "fake_codec.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::load {
namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::path(::testing::TempDir()) / name;
  EXPECT_TRUE(util::write_file_atomic(path, text));
  return path;
}

TEST(FileDataset, CustomJsonlReadsPromptsIdsAndConversations) {
  const auto path = write_temp("custom.jsonl",
                               "{\"prompt\": \"abc\", \"output_len\": 9}\n"
                               "\n"
                               "{\"prompt\": [5, 6, 7]}\n"
                               "{\"conversations\": [{\"from\": \"human\", \"value\": \"xy\"},"
                               " {\"from\": \"gpt\", \"value\": \"abab\"}]}\n");
  testing::FakeCodec codec;
  auto prompts = load_custom_jsonl(path, {.num_prompts = 3, .default_output_len = 4}, &codec);
  ASSERT_TRUE(prompts) << prompts.error().message;
  ASSERT_EQ(prompts->size(), 3u);
  EXPECT_EQ((*prompts)[0].text, "abc");
  EXPECT_EQ((*prompts)[0].input_tokens, 3);  // BOS + ab + c
  EXPECT_EQ((*prompts)[0].output_tokens, 9);
  EXPECT_EQ((*prompts)[1].ids, (std::vector<std::int32_t>{5, 6, 7}));
  EXPECT_EQ((*prompts)[1].output_tokens, 4);  // the default
  ASSERT_EQ((*prompts)[2].messages.size(), 1u);
  EXPECT_EQ((*prompts)[2].messages[0].role, "user");
  EXPECT_EQ((*prompts)[2].output_tokens, 2);  // the reply "abab" is two tokens
}

TEST(FileDataset, AUtf8ByteOrderMarkDoesNotDropTheFirstRecord) {
  const auto path = write_temp("bom.jsonl", "\xEF\xBB\xBF{\"prompt\": [1, 2]}\n{\"prompt\": [3]}\n");
  auto prompts = load_custom_jsonl(path, {.num_prompts = 2}, nullptr);
  ASSERT_TRUE(prompts) << prompts.error().message;
  ASSERT_EQ(prompts->size(), 2u);
  EXPECT_EQ((*prompts)[0].ids, (std::vector<std::int32_t>{1, 2}));
}

TEST(FileDataset, CustomJsonlNamesTheBadLine) {
  const auto path = write_temp("bad.jsonl", "{\"prompt\": \"a\"}\n{\"neither\": 1}\n");
  auto prompts = load_custom_jsonl(path, {.num_prompts = 2}, nullptr);
  ASSERT_FALSE(prompts);
  EXPECT_EQ(prompts.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(prompts.error().message.find("bad.jsonl:2"), std::string::npos) << prompts.error().message;
}

TEST(FileDataset, TooFewPromptsIsAnError) {
  const auto path = write_temp("short.jsonl", "{\"prompt\": \"a\"}\n");
  auto prompts = load_custom_jsonl(path, {.num_prompts = 2}, nullptr);
  ASSERT_FALSE(prompts);
  EXPECT_NE(prompts.error().message.find("fewer than --num-prompts 2"), std::string::npos);
}

TEST(FileDataset, ShareGptTakesTheFirstExchangeShuffled) {
  const auto path = write_temp("sharegpt.json",
                               "[{\"conversations\": [{\"from\": \"human\", \"value\": \"aa\"},"
                               "                      {\"from\": \"gpt\", \"value\": \"bbb\"}]},"
                               " {\"conversations\": [{\"from\": \"human\", \"value\": \"only\"}]},"
                               " {\"conversations\": [{\"from\": \"human\", \"value\": \"cc\"},"
                               "                      {\"from\": \"gpt\", \"value\": \"dddd\"},"
                               "                      {\"from\": \"human\", \"value\": \"later\"}]}]");
  testing::FakeCodec codec;
  auto prompts = load_sharegpt(path, {.num_prompts = 2, .seed = 1}, &codec);
  ASSERT_TRUE(prompts) << prompts.error().message;
  ASSERT_EQ(prompts->size(), 2u);
  for (const Prompt& p : *prompts) {
    EXPECT_TRUE(p.messages.empty());
    EXPECT_TRUE(p.text == "aa" || p.text == "cc") << p.text;
    EXPECT_EQ(p.input_tokens, 3);
    EXPECT_EQ(p.output_tokens, p.text == "aa" ? 3 : 4);
  }
  EXPECT_NE((*prompts)[0].text, (*prompts)[1].text);
  auto fixed = load_sharegpt(path, {.num_prompts = 2, .output_len = 64, .seed = 1}, nullptr);
  ASSERT_TRUE(fixed);
  EXPECT_EQ((*fixed)[0].output_tokens, 64);
  EXPECT_EQ((*fixed)[0].input_tokens, 0);  // unknown without a tokenizer
  EXPECT_FALSE(load_sharegpt(path, {.num_prompts = 3}, nullptr));
}

}  // namespace
}  // namespace servebench::load
