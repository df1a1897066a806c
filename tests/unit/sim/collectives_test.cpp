#include "servebench/sim/collectives.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

namespace {

Deployment on(const char* hw, int tp, int nnodes = 1, const char* engine = "sglang") {
  SimConfig c;
  c.model = "llama-3.1-70b";
  c.hardware = hw;
  c.tp_size = tp;
  c.engine = engine;
  if (nnodes > 1) c.nnodes = nnodes, c.dist_init_addr = "10.0.0.1:20000";
  return make_deployment(c).value();
}

double us(std::chrono::nanoseconds d) { return std::chrono::duration<double, std::micro>(d).count(); }

}  // namespace

// docs/sim.md "Collectives": a decode step's all-reduce at C=1 on TP8 is 16 KB (8192 hidden x 2 B);
// latency decides, and the custom all-reduce's single round beats NCCL's 14-step ring.
TEST(Collectives, SmallMessagesOnNvlinkTakeTheOneShotAllReduce) {
  const auto d = on("h200", 8);
  const Collectives c(d);
  const auto& e = d.hardware.efficiency;
  const double bytes = 8192 * 2.0, bw = 450e9 * e.link;
  EXPECT_EQ(c.all_reduce_algorithm(bytes, 8), AllReduceAlgorithm::one_shot);
  EXPECT_NEAR(us(c.all_reduce(bytes, 8)), us(e.all_reduce_base + e.hop_latency) + 7 * bytes / bw * 1e6, 0.01);
  // 1 MB: one-shot reads 7 MB per rank; two-shot moves 1.75 MB in two rounds and wins.
  EXPECT_EQ(c.all_reduce_algorithm(1e6, 8), AllReduceAlgorithm::two_shot);
  // A prefill chunk's 134 MB (8192 tokens x 8192 x 2 B) is past the 8 MiB buffer: NCCL's ring.
  EXPECT_EQ(c.all_reduce_algorithm(8192 * 8192 * 2.0, 8), AllReduceAlgorithm::ring);
  EXPECT_NEAR(us(c.all_reduce(8192 * 8192 * 2.0, 8)), us(e.all_reduce_base + 14 * e.hop_latency) + 1.75 * 8192 * 8192 * 2.0 / bw * 1e6, 0.01);
}

TEST(Collectives, PcieAndEnginesWithoutACustomAllReduceUseTheRing) {
  const auto pcie = on("rtx-pro-6000", 8);
  EXPECT_EQ(Collectives(pcie).all_reduce_algorithm(16384, 8), AllReduceAlgorithm::ring);
  const auto d = on("h200", 8);
  auto no_custom = d;
  no_custom.engine.custom_all_reduce = false;
  EXPECT_EQ(Collectives(no_custom).all_reduce_algorithm(16384, 8), AllReduceAlgorithm::ring);
  EXPECT_GT(Collectives(no_custom).all_reduce(16384, 8), 2 * Collectives(d).all_reduce(16384, 8));
}

TEST(Collectives, AcrossNodesATreeBeatsTheRingForSmallMessagesOnly) {
  const auto d = on("h200", 16, 4);  // 4 nodes of 4 GPUs
  const Collectives c(d);
  EXPECT_EQ(c.all_reduce_algorithm(16384, 16), AllReduceAlgorithm::tree);
  EXPECT_EQ(c.all_reduce_algorithm(1e9, 16), AllReduceAlgorithm::ring);
  const auto one_node = on("h200", 16);
  EXPECT_GT(c.all_reduce(16384, 16), Collectives(one_node).all_reduce(16384, 16));
}

TEST(Collectives, NeverCheaperWithMoreBytesOrMoreRanks) {
  for (const char* hw : {"h200", "rtx-pro-6000", "gb300"}) {
    const auto d = on(hw, 8);
    const Collectives c(d);
    for (double bytes = 1e3; bytes < 1e9; bytes *= 3) {
      for (int n : {2, 4, 8}) {
        EXPECT_LE(c.all_reduce(bytes, n), c.all_reduce(bytes * 3, n)) << hw << " " << bytes << " " << n;
        if (n < 8) {
          EXPECT_LE(c.all_reduce(bytes, n), c.all_reduce(bytes, n * 2)) << hw << " " << bytes << " " << n;
        }
        EXPECT_LE(c.all_to_all(bytes, n), c.all_to_all(bytes * 3, n)) << hw;
        EXPECT_LE(c.all_gather(bytes, n), c.all_gather(bytes * 3, n)) << hw;
      }
    }
  }
}

// EP dispatch: each rank sends the (n - 1)/n of its top-k copies that live on other ranks, to all
// peers at once: one round of latency, not a ring's 2(n - 1).
TEST(Collectives, AllToAllIsOneRoundOverTheRemoteShare) {
  const auto d = on("h200", 8);
  const Collectives c(d);
  const auto& e = d.hardware.efficiency;
  const double bytes = 64 * 8 * 8192.0;  // 64 tokens x top-8 x hidden, FP8
  EXPECT_NEAR(us(c.all_to_all(bytes, 8)), us(e.all_reduce_base + e.hop_latency) + 7.0 / 8 * bytes / (450e9 * e.link) * 1e6, 0.01);
  EXPECT_EQ(c.all_to_all(bytes, 1), std::chrono::nanoseconds{0});
}
