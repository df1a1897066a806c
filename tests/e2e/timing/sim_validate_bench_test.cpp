// `servebench sim validate BENCH.jsonl --launch …`: a bench result file (what `bench --output-file`
// and sglang.bench_serving write) validated against the deployment that served it. The server here is
// serve-sim in real time, so the measured runs are the simulator's own prediction plus the wire's
// pacing: they must validate close to it. The file's lines carry the server's /server_info, which
// rebuilds the launch; a file without it needs --launch.
#include <gtest/gtest.h>

#include "e2e/sim_child.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {

TEST(SimValidateBench, ABenchResultValidatesAgainstTheLaunchThatServedIt) {
  // Flags that change the prediction, so a launch rebuilt wrongly from the file shows.
  const std::vector<std::string> deployment{"--hw", "h200", "--model", "llama-3.1-8b", "--context-length", "4096",
                                            "--tp-size", "2", "--chunked-prefill-size", "1024",
                                            "--max-running-requests", "3", "--enable-mixed-chunk"};
  SimChild sim("sim_validate_bench", deployment);
  ASSERT_FALSE(sim.url.empty());
  for (const char* c : {"1", "4"}) {
    const auto r = sim.bench({"--backend", "sglang-oai", "--num-prompts", "8", "--max-concurrency", c,
                              "--random-input-len", "512", "--random-output-len", "64", "--random-range-ratio", "1",
                              "--flush-cache", "--max-client-lag", "100"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  const std::string results = (sim.dir / "out.jsonl").string();

  std::string launch = "servebench serve-sim";
  for (const auto& w : deployment) launch += " " + w;
  const auto v = run_servebench({"sim", "validate", results, "--json", "--launch", launch + " --port {port}"}, sim.dir);
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

  // Without --launch, each line's server_info (bench records it) rebuilds the same deployment: the
  // same predictions, number for number.
  const auto own = run_servebench({"sim", "validate", results, "--json"}, sim.dir);
  ASSERT_EQ(own.exit_code, 0) << own.out << own.err;
  EXPECT_EQ(boost::json::parse(own.out).at("folds").as_array().at(0).at("points"), fold.at("points")) << own.out;

  // A line that does not say what served it needs --launch (or --hw and --model).
  std::string stripped;
  const std::string text = util::read_file(results).value();
  for (const auto line : util::split(std::string_view(text), '\n')) {
    if (util::trim(line).empty()) continue;
    auto o = boost::json::parse(line).as_object();
    o.erase("server_info");
    stripped += boost::json::serialize(o) + "\n";
  }
  const auto bare = sim.dir / "bare.jsonl";
  ASSERT_TRUE(util::write_file_atomic(bare, stripped));
  const auto no_launch = run_servebench({"sim", "validate", bare.string()}, sim.dir);
  EXPECT_EQ(no_launch.exit_code, 2) << no_launch.out << no_launch.err;
  EXPECT_NE(no_launch.err.find("no server_info): give --launch"), std::string::npos) << no_launch.err;
}

}  // namespace servebench::e2e
