// recipe::insert_node_flags as the cluster executors use it (the recipe module owns the rendering).
#include "servebench/recipe/node_flags.hpp"

#include <gtest/gtest.h>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

std::string with_flags(const std::string& command, flags::Dialect d = flags::Dialect::sglang) {
  auto facts = load_render_facts();
  EXPECT_TRUE(facts);
  auto words = util::shell_split(command);
  EXPECT_TRUE(words);
  auto out = insert_node_flags(*facts, d, *words, {2, "$SLURM_NODEID", "node0"});
  EXPECT_TRUE(out) << out.error().message;
  return out ? util::join(*out, " ") : "";
}

TEST(NodeFlags, GoAfterTheLastParallelismFlagAndItsValue) {
  EXPECT_EQ(with_flags("sglang serve --model-path m --tp-size 8 --dp-size 2 --port 1"),
            "sglang serve --model-path m --tp-size 8 --dp-size 2 --nnodes 2 --node-rank $SLURM_NODEID "
            "--dist-init-addr node0:20000 --port 1");
  EXPECT_EQ(with_flags("sglang serve --tp=8 --port 1"),
            "sglang serve --tp=8 --nnodes 2 --node-rank $SLURM_NODEID --dist-init-addr node0:20000 --port 1");
  // No parallelism flag: after the model flag; neither: at the end.
  EXPECT_EQ(with_flags("sglang serve --model-path m --port 1"),
            "sglang serve --model-path m --nnodes 2 --node-rank $SLURM_NODEID --dist-init-addr node0:20000 --port 1");
  EXPECT_EQ(with_flags("x --port 1"), "x --port 1 --nnodes 2 --node-rank $SLURM_NODEID --dist-init-addr node0:20000");
  EXPECT_EQ(with_flags("vllm serve --model m --tensor-parallel-size 8", flags::Dialect::vllm),
            "vllm serve --model m --tensor-parallel-size 8 --nnodes 2 --node-rank $SLURM_NODEID --master-addr node0");
}

}  // namespace
}  // namespace servebench::recipe

#include "servebench/cluster/node_launch.hpp"

namespace servebench::cluster {
namespace {

TEST(RankedLaunch, MultiNodeArmsGetTheFlagsSingleNodeArmsStayAsWritten) {
  auto facts = recipe::load_render_facts();
  ASSERT_TRUE(facts);
  campaign::ArmSpec arm;
  arm.name = "big";
  arm.engine = engines::Engine::sglang;
  arm.launch = "sglang serve --model-path 'my model' --tp-size 16 --port {port}";
  EXPECT_EQ(ranked_launch(arm, *facts, k_slurm_rank, k_slurm_node0).value_or(""), *arm.launch);
  arm.nodes = 2;
  EXPECT_EQ(ranked_launch(arm, *facts, k_slurm_rank, k_slurm_node0).value_or(""),
            "sglang serve --model-path 'my model' --tp-size 16 --nnodes 2 --node-rank $SLURM_NODEID "
            "--dist-init-addr $SERVEBENCH_NODE0:20000 --port {port}");
  arm.engine = engines::Engine::openai;  // no multi-node rendering known
  auto none = ranked_launch(arm, *facts, k_slurm_rank, k_slurm_node0);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("arm 'big'"), std::string::npos) << none.error().message;
}

}  // namespace
}  // namespace servebench::cluster
