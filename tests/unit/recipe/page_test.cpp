#include "servebench/recipe/page.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

const std::string k_constructs = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/constructs.yaml";

Catalog constructs() { return parsed(text_of(k_constructs), "constructs.yaml"); }

PageView page_of(const Catalog& c, const std::string& select) {
  auto s = parse_selection(c, select);
  EXPECT_TRUE(s) << s.error().message;
  return page_view(c, *s);
}

}  // namespace

TEST(Page, MultiNodeAddsNodeFlagsAfterTheLastParallelismFlagAndAHeader) {
  const auto p = page_of(constructs(), "hw=b200,quant=bf16,nodes=multi-2,spec=none");
  EXPECT_EQ(p.nnodes, 2);
  EXPECT_EQ(*p.command,
            "# Multi-node (2 nodes): run this command on every node.\n"
            "# NODE_RANK: 0 on the first node, 1..1 on the others.\n"
            "# NODE0_IP: the first node's address; every node must reach it on port 20000.\n"
            "# Use the InfiniBand interface for NCCL (NCCL_SOCKET_IFNAME).\n"
            "sglang serve \\\n"
            "  --model-path org/base \\\n"
            "  --tp-size 8 \\\n"
            "  --nnodes 2 \\\n"
            "  --node-rank {{NODE_RANK}} \\\n"
            "  --dist-init-addr {{NODE0_IP}}:20000 \\\n"
            "  --pp-size 2 \\\n"
            "  --host 0.0.0.0 \\\n"
            "  --port 30000");
  EXPECT_EQ(p.hints, (std::vector<std::string>{"Use the InfiniBand interface for NCCL (NCCL_SOCKET_IFNAME)."}));
  EXPECT_EQ(p.warn, "Two-node recipes need a 400 Gb/s fabric.");
  EXPECT_EQ(p.badge, Badge::in_progress);
  // Multi-node Docker commands use the host network.
  EXPECT_NE(p.docker_command->find("  --shm-size 32g \\\n  --network host \\\n"), std::string::npos) << *p.docker_command;
}

TEST(Page, AmdHardwareDeclaredByTheCatalogGetsTheRocmDockerLines) {
  const auto p = page_of(constructs(), "hw=mi355x,quant=fp8,nodes=single");
  EXPECT_EQ(p.model_name, "org/base-fp8");  // quant before hw in the model-name keys
  EXPECT_EQ(*p.docker_command,
            "docker run \\\n"
            "  --device=/dev/kfd \\\n"
            "  --device=/dev/dri \\\n"
            "  --group-add video \\\n"
            "  --cap-add=SYS_PTRACE \\\n"
            "  --security-opt seccomp=unconfined \\\n"
            "  --shm-size 32g \\\n"
            "  -p 30000:30000 \\\n"
            "  -v ~/.cache/huggingface:/root/.cache/huggingface \\\n"
            "  -v /models:/models \\\n"
            "  --env \"HF_TOKEN=<your-hf-token>\" \\\n"
            "  --ipc=host \\\n"
            "  lmsysorg/sglang:rocm-fp8 \\\n"
            "  sglang serve \\\n"
            "    --model-path org/base-fp8 \\\n"
            "    --tp-size 8 \\\n"
            "    --attention-backend aiter \\\n"
            "    --port 30000");
  // hw|quant first, then hw: the bf16 cell takes the plain ROCm image; multi-node adds the fabric.
  const auto multi = page_of(constructs(), "hw=mi355x,quant=bf16,nodes=multi-2");
  EXPECT_NE(multi.docker_command->find("  --network host \\\n  --device=/dev/infiniband \\\n"), std::string::npos);
  EXPECT_NE(multi.docker_command->find("  lmsysorg/sglang:rocm \\\n"), std::string::npos);
  EXPECT_EQ(multi.model_name, "org/base-rocm");
}

TEST(Page, PdRoleTakesItsPortAndTheHostNetworkWithoutTheHfCacheOnNpu) {
  const auto p = page_of(constructs(), "hw=a3,quant=fp8,nodes=single");
  EXPECT_EQ(p.flags.back(), "--port 30100");
  EXPECT_EQ(p.hints, (std::vector<std::string>{"Start the prefill instance first."}));
  EXPECT_TRUE(p.docker_command->starts_with("# Start the prefill instance first.\ndocker run --privileged \\\n"));
  EXPECT_NE(p.docker_command->find("  --network host \\\n"), std::string::npos);
  EXPECT_EQ(p.docker_command->find("huggingface"), std::string::npos);
  EXPECT_NE(p.docker_command->find("  lmsysorg/sglang:dev \\\n"), std::string::npos);  // no image key: the engine's
}

TEST(Page, RedirectCellShowsOnlyItsBanner) {
  const auto p = page_of(constructs(), "hw=a3,quant=bf16,nodes=single");
  EXPECT_TRUE(p.cell_found);
  EXPECT_FALSE(p.command.has_value());
  EXPECT_FALSE(p.docker_command.has_value());
  EXPECT_EQ(p.warn, "Ascend recipes live in the NPU cookbook.");
}

TEST(Page, SpecNoticeSaysWhetherMaxRunningRequestsIsPinned) {
  const Catalog c = constructs();
  const auto defaulted = page_of(c, "hw=b200,quant=bf16,nodes=single");
  ASSERT_TRUE(defaulted.spec_notice);
  EXPECT_EQ(*defaulted.spec_notice, (SpecNotice{"max-running-requests-defaults-to-48", "EAGLE", std::nullopt}));
  const auto pinned = page_of(c, "hw=b200,quant=bf16,nodes=single,mrr=pinned");
  EXPECT_EQ(*pinned.spec_notice, (SpecNotice{"max-running-requests-pinned", "EAGLE", "64"}));
  EXPECT_FALSE(page_of(c, "hw=b200,quant=bf16,nodes=single,spec=none").spec_notice);
}

TEST(Page, HiddenRowContributesNothingAndGreysItsOtherOptions) {
  const Catalog c = constructs();
  // mrr shows only with spec=mtp; on mi355x spec is none, so mrr=pinned is hidden and adds no flag.
  const auto p = page_of(c, "hw=mi355x,quant=bf16,nodes=single,mrr=pinned");
  ASSERT_EQ(p.greyed.size(), 1u);
  EXPECT_EQ(p.greyed[0].kind, GreyKind::hidden);
  EXPECT_EQ(c.dims[p.greyed[0].dim].id, "mrr");
  EXPECT_EQ(std::count(p.flags.begin(), p.flags.end(), "--max-running-requests 64"), 0);
  ASSERT_TRUE(p.snapped);
  EXPECT_EQ(to_string(c, *p.snapped), "hw=mi355x,quant=bf16,nodes=single");
}

TEST(Page, PlaceholdersTheCatalogDoesNotDeclareStayAsWritten) {
  const Catalog c = constructs();
  PlaceholderValues set;
  set.set("NODE_RANK", "1");
  const auto p = page_view(c, *parse_selection(c, "hw=b200,quant=bf16,nodes=multi-2"), set);
  EXPECT_NE(std::find(p.flags.begin(), p.flags.end(), "--node-rank 1"), p.flags.end());
  EXPECT_NE(std::find(p.flags.begin(), p.flags.end(), "--dist-init-addr {{NODE0_IP}}:20000"), p.flags.end());
}

TEST(Page, ExamplePageOfTheCookbook) {
  const auto p = page_of(example(), "hw=h200,strategy=high-throughput,quant=fp8,hicache=l3");
  EXPECT_EQ(p.badge, Badge::unverified);
  EXPECT_EQ(p.env, (std::vector<std::string>{"SGLANG_HICACHE_MOONCAKE_CONFIG_PATH=<mooncake.json>"}));
  EXPECT_TRUE(p.command->starts_with("# Start Mooncake and place the configuration file on every serving node.\n"
                                     "SGLANG_HICACHE_MOONCAKE_CONFIG_PATH=<mooncake.json> \\\nsglang serve \\\n"));
  EXPECT_TRUE(p.greyed.empty());
}

TEST(Page, VllmMultiNodeUsesVllmsNodeFlagsAndEntrypoint) {
  const Catalog c = parsed(text_of(std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/vllm.yaml"), "vllm.yaml");
  const auto p = page_of(c, "hw=h100,nodes=multi-2");
  EXPECT_EQ(p.flags, (std::vector<std::string>{"meta-llama/Llama-3.1-70B-Instruct", "--tensor-parallel-size 8",
                                               "--pipeline-parallel-size 2", "--nnodes 2", "--node-rank {{NODE_RANK}}",
                                               "--master-addr {{NODE0_IP}}", "--port 8000"}));
  EXPECT_NE(p.command->find("\nvllm serve \\\n  meta-llama/Llama-3.1-70B-Instruct \\\n"), std::string::npos) << *p.command;
  // The image's entrypoint serves: the flags follow the image.
  EXPECT_NE(p.docker_command->find("  vllm/vllm-openai:latest \\\n    meta-llama/Llama-3.1-70B-Instruct \\\n"), std::string::npos)
      << *p.docker_command;
  EXPECT_NE(p.docker_command->find("  --network host \\\n"), std::string::npos);
  EXPECT_TRUE(page_of(c, "hw=h100,nodes=single").docker_command->starts_with(
      "docker run --gpus all \\\n  --shm-size 32g \\\n  -p 8000:8000 \\\n"));
}
