#include "servebench/recipe/lint_command.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

std::vector<CommandFinding> lint_of(const Catalog& c, const std::string& command, const std::string& gpu_name,
                                    int gpus_per_node = 8) {
  static const auto facts = load_lint_facts();
  EXPECT_TRUE(facts);
  const auto n = servebench::flags::normalize_command(servebench::flags::Dialect::sglang, command);
  EXPECT_TRUE(n) << n.error().message;
  const GpuFacts* gpu = find_gpu(facts->gpus, gpu_name);
  EXPECT_NE(gpu, nullptr);
  return lint_command({*n, c, 1, *gpu, gpus_per_node}, *facts);
}

std::vector<std::string> rules(const std::vector<CommandFinding>& f) {
  std::vector<std::string> out;
  for (const auto& x : f) out.push_back(x.rule);
  return out;
}

}  // namespace

TEST(LintCommand, CleanCommandHasNoFindings) {
  EXPECT_TRUE(lint_of(mini(), "python3 -m sglang.launch_server --tp-size 4 --moe-runner-backend flashinfer_trtllm", "b200").empty());
}

TEST(LintCommand, EveryRuleInOrder) {
  // unknown, duplicate, default, arch, divisibility (moe 2048/(8/1)=256 ok; heads 64/8 ok), conflict
  const auto f = lint_of(mini(),
                         "python3 -m sglang.launch_server --bogus 1 --tp 8 --tp-size 8 --ep-size 1 "
                         "--attention-backend trtllm_mla --speculative-algorithm EAGLE --enable-dp-attention --dp-size 8",
                         "h100");
  EXPECT_EQ(rules(f), (std::vector<std::string>{"unknown-flag", "duplicate-flag", "redundant-default", "arch-backend", "conflict"}));
}

TEST(LintCommand, MoeTileFollowsTpOverEp) {
  // TP 32 alone splits each expert 32 ways: 2048 / 32 = 64. With EP 32 every rank holds whole experts.
  const auto split = lint_of(mini(), "x --tp-size 32", "b200", 32);
  ASSERT_EQ(rules(split), (std::vector<std::string>{"divisibility-moe"}));
  EXPECT_EQ(split[0].flag, "--tp-size");
  EXPECT_TRUE(lint_of(mini(), "x --tp-size 32 --ep-size 32", "b200", 32).empty());
}

TEST(LintCommand, KvHeadsThatNeitherSplitNorReplicate) {
  const auto f = lint_of(mini(), "x --tp-size 16 --dp-size 4 --enable-dp-attention", "b200", 16);
  EXPECT_TRUE(f.empty());  // attention-TP 4 splits 8 KV heads evenly
  const Catalog c = parsed(replaced(text_of(k_mini_path), "kv_heads: 8", "kv_heads: 3"));
  const auto odd = lint_of(c, "x --tp-size 4", "b200");
  ASSERT_EQ(rules(odd), (std::vector<std::string>{"divisibility-kv-heads"}));
  EXPECT_EQ(odd[0].message, "3 KV heads neither split nor replicate evenly over attention-TP 4");
}

TEST(LintCommand, GpuCountUsesNodesOfTheCell) {
  const auto f = lint_of(mini(), "x --tp-size 8 --pp-size 2", "b200", 8);
  ASSERT_EQ(rules(f), (std::vector<std::string>{"gpu-count"}));
  EXPECT_EQ(f[0].message, "needs 16 GPUs (TP 8 x PP 2 x DP 1)");
  EXPECT_EQ(f[0].context, "b200 has 8 per node x 1 node(s) = 8");
}
