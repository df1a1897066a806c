// Multi-node arms on serve-sim: a deployment spread over two nodes pays for collectives over the
// inter-node link of the hardware card, so the same TP-8 arm measures slower per token on two
// nodes than on one; ranks other than 0 only join (no HTTP), as SGLang's do.
#include <csignal>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

TEST(CampaignMultiNode, TwoNodeArmIsSlowerOnCollectivesThanOneNode) {
  const auto dir = campaign_temp_dir("multinode");
  // Real time: the steps are 4-5 ms, so at a time scale below 1 the cross-node share of a step would
  // be smaller than the machine's own scheduling noise.
  const std::string base = "servebench serve-sim --hw h200 --model llama-3.1-8b --tp-size 8 --port {port} --sim-oracle "
                           "--sim-time-scale 1";
  write_text(dir / "c.yaml",
             "name: e2e-multinode\n"
             "protocol: {num_prompts: \"max(2, c)\", warmup_requests: 1, client_lag_limit: 1000}\n"
             "arms:\n"
             "  - {name: one-node, engine: sim, launch: \"" + base + "\", gpus: 8, ready_timeout_s: 30, gate: false}\n"
             "  - {name: two-nodes, engine: sim, nodes: 2, gpus: 8, ready_timeout_s: 30, gate: false,\n"
             "     launch: \"" + base + " --nnodes 2 --node-rank 0 --dist-init-addr 127.0.0.1:20000\"}\n"
             "scenarios:\n"
             "  - {name: chat, isl: 1024, osl: 32, concurrency: [4]}\n");
  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "out", "--no-progress"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto ledger = read_run_ledger(dir / "out");
  const results::PointRecord* one = nullptr;
  const results::PointRecord* two = nullptr;
  for (const auto& r : ledger.records) (r.arm == "one-node" ? one : two) = &r;
  ASSERT_TRUE(one && two);
  EXPECT_GT(two->tpot_ms.mean, one->tpot_ms.mean * 1.05) << "every decode step all-reduces across the nodes";
  EXPECT_GT(two->ttft_ms.mean, one->ttft_ms.mean) << "so does the prefill";
  const auto facts = read_json_file(dir / "out" / "arms" / "two-nodes" / "server_facts.json");
  EXPECT_NE(util::to_json_text(facts).find("\"nnodes\""), std::string::npos) << util::to_json_text(facts);
}

TEST(CampaignMultiNode, ARankAboveZeroJoinsWithoutServing) {
  const auto dir = campaign_temp_dir("multinode_worker");
  auto worker = start_in({"serve-sim", "--hw", "h200", "--model", "llama-3.1-8b", "--tp-size", "8", "--nnodes", "2",
                          "--node-rank", "1", "--dist-init-addr", "127.0.0.1:20000", "--port", "0"},
                         dir, "worker");
  ASSERT_TRUE(wait_until([&] { return util::read_file(dir / "worker.out").value_or("").find("worker") != std::string::npos; },
                         std::chrono::seconds(20)));
  const std::string out = util::read_file(dir / "worker.out").value_or("");
  EXPECT_NE(out.find("node rank 1 of 2"), std::string::npos) << out;
  EXPECT_EQ(out.find("listening on"), std::string::npos) << "only rank 0 serves HTTP";
  worker.signal(SIGTERM);
  EXPECT_EQ(worker.wait_exit(std::chrono::seconds(10)).value_or(-1), 0);
  const auto bad = run_servebench({"serve-sim", "--tp-size", "8", "--nnodes", "3", "--dist-init-addr", "x:1"}, dir);
  EXPECT_EQ(bad.exit_code, 2) << "8 GPUs do not split over 3 nodes: " << bad.err;
}

}  // namespace
}  // namespace servebench::e2e
