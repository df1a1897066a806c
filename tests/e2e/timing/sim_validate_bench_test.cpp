// `servebench sim validate BENCH.jsonl --launch …`: a bench result file (what `bench --output-file`
// and sglang.bench_serving write) validated against the deployment that served it. The server here is
// serve-sim in real time, so the measured runs are the simulator's own prediction plus the wire's
// pacing: they must validate close to it, and a file that does not say what served it needs --launch.
#include <gtest/gtest.h>

#include "e2e/sim_child.hpp"

namespace servebench::e2e {

TEST(SimValidateBench, ABenchResultValidatesAgainstTheLaunchThatServedIt) {
  const std::vector<std::string> deployment{"--hw", "h200", "--model", "llama-3.1-8b", "--context-length", "4096"};
  SimChild sim("sim_validate_bench", deployment);
  ASSERT_FALSE(sim.url.empty());
  for (const char* c : {"1", "4"}) {
    const auto r = sim.bench({"--backend", "sglang-oai", "--num-prompts", "8", "--max-concurrency", c,
                              "--random-input-len", "512", "--random-output-len", "64", "--random-range-ratio", "1",
                              "--flush-cache", "--max-client-lag", "100"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  const std::string results = (sim.dir / "out.jsonl").string();

  const auto no_launch = run_servebench({"sim", "validate", results}, sim.dir);
  EXPECT_EQ(no_launch.exit_code, 2) << no_launch.out << no_launch.err;
  EXPECT_NE(no_launch.err.find("give --launch"), std::string::npos) << no_launch.err;

  const auto v = run_servebench(
      {"sim", "validate", results, "--json", "--launch",
       "servebench serve-sim --hw h200 --model llama-3.1-8b --context-length 4096 --port {port}"},
      sim.dir);
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  const auto doc = boost::json::parse(v.out);
  const auto& fold = doc.at("folds").as_array().at(0).as_object();
  ASSERT_EQ(fold.at("points").as_array().size(), 2u) << v.out;
  // TPOT and throughput are the engine's steps as the wire paced them; TTFT (20-30 ms here) also
  // carries the HTTP round trip and tokenization the replay does not, so it is not held to 15 %.
  const auto& m = fold.at("metrics").as_object();
  for (const char* metric : {"TPOT ms", "output tok/s", "total tok/s/GPU"}) {
    EXPECT_EQ(m.at(metric).at("n").to_number<int>(), 2) << metric;
    EXPECT_LT(m.at(metric).at("mape_pct").to_number<double>(), 15.0) << metric << "\n" << v.out;
  }
}

}  // namespace servebench::e2e
