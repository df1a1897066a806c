// Measured points from a bench result JSONL (sglang.bench_serving / servebench bench / vLLM keys): the
// load and means of each closed-loop run, the deployment from the caller.
#include "servebench/sim/bench_points.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "servebench/sim/validation.hpp"

using namespace servebench::sim;

namespace {

// What served the runs: SimConfig's default, Llama-3.1-8B on one H200.
SimConfig llama_h200() { return {}; }

// One line as sglang.bench_serving writes it (Python's json: an unbounded rate is the bare Infinity).
std::string sglang_line(int c, int completed, double in, double out, double ttft, double tpot, double out_tps,
                        double total_tps) {
  return fmt::format(
      R"({{"backend": "sglang-oai", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": {},)"
      R"( "random_input_len": 512, "completed": {}, "total_input_tokens": {}, "total_output_tokens": {},)"
      R"( "mean_ttft_ms": {}, "mean_tpot_ms": {}, "output_throughput": {}, "total_throughput": {},)"
      R"( "accept_length": null, "tag": "chat"}})",
      c, completed, in, out, ttft, tpot, out_tps, total_tps);
}

}  // namespace

TEST(BenchPoints, PythonLiteralsOutsideStringsBecomeStrings) {
  EXPECT_EQ(quote_python_literals(R"({"a": Infinity, "b": -Infinity, "c": NaN})"),
            R"({"a": "inf", "b": "-inf", "c": "nan"})");
  // Inside strings (escaped quotes too) nothing changes.
  EXPECT_EQ(quote_python_literals(R"({"t": "NaN \" Infinity", "u": 1})"), R"({"t": "NaN \" Infinity", "u": 1})");
  EXPECT_TRUE(is_bench_results("\n" + sglang_line(1, 4, 2048, 256, 30, 5, 190, 1700) + "\n"));
  EXPECT_FALSE(is_bench_results(R"({"model": "llama-3.1-8b", "hw": "h200", "ttft_ms_mean": 30})"));
}

TEST(BenchPoints, ClosedLoopRunsBecomePointsOpenLoopRunsAreSkipped) {
  const std::string vllm_line =
      R"({"date": "20261206-101010", "backend": "vllm", "num_prompts": 16, "request_rate": "inf", "max_concurrency": 8,)"
      R"( "completed": 16, "total_input_tokens": 16384, "total_output_tokens": 2048, "mean_ttft_ms": 80.5,)"
      R"( "mean_tpot_ms": 7.5, "output_throughput": 900.0, "total_token_throughput": 8100.0,)"
      R"( "spec_decode_acceptance_length": 2.5, "label": "v"})";
  const std::string open_loop =
      R"({"request_rate": 4.0, "max_concurrency": null, "completed": 8, "total_input_tokens": 8, "total_output_tokens": 8, "mean_ttft_ms": 1})";
  const std::string text = sglang_line(1, 4, 2050, 256, 30, 5, 190, 1700) + "\n" + open_loop + "\n" + vllm_line + "\n";
  auto c = llama_h200();
  c.tp_size = 2;
  const auto pts = parse_bench_points(text, "r.jsonl", c, 2);
  ASSERT_TRUE(pts) << pts.error().message;
  ASSERT_EQ(pts->size(), 2u);
  const auto& a = (*pts)[0];
  EXPECT_EQ(a.isl, 513);  // 2050 / 4, rounded: the mean prompt
  EXPECT_EQ(a.osl, 64);
  EXPECT_EQ(a.concurrency, 1);
  EXPECT_EQ(a.num_prompts, 4);  // completed, when the line has no num_prompts
  EXPECT_EQ(a.config.tp_size, 2);
  EXPECT_DOUBLE_EQ(*a.total_tok_s_per_gpu, 850);  // per GPU of the deployment
  EXPECT_FALSE(a.accept_length);
  EXPECT_EQ(a.label, "513→64 C1 chat");
  EXPECT_EQ(a.source, "r.jsonl line 1");
  const auto& b = (*pts)[1];
  EXPECT_EQ(b.concurrency, 8);
  EXPECT_EQ(b.num_prompts, 16);
  EXPECT_DOUBLE_EQ(*b.total_tok_s_per_gpu, 4050);
  EXPECT_DOUBLE_EQ(*b.accept_length, 2.5);
  EXPECT_EQ(b.source, "r.jsonl line 3");
}

TEST(BenchPoints, BadRunsNameTheLineAndTheKey) {
  const auto none = parse_bench_points(
      R"({"request_rate": 2.0, "max_concurrency": 4, "completed": 1, "mean_ttft_ms": 1})", "r.jsonl", llama_h200(), 1);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no closed-loop run (1 open-loop"), std::string::npos) << none.error().message;
  const auto zero = parse_bench_points("\n" + sglang_line(4, 0, 10, 10, 1, 1, 1, 1), "r.jsonl", llama_h200(), 1);
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().message.find("r.jsonl:2: completed"), std::string::npos) << zero.error().message;
  const auto broken = parse_bench_points("{\"mean_ttft_ms\": ", "r.jsonl", llama_h200(), 1);
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().message.find("r.jsonl:1"), std::string::npos) << broken.error().message;
}

// Runs "measured" on the cards validate against them with no error: the length, concurrency, prompt
// count and per-GPU arithmetic reach the replay intact.
TEST(BenchPoints, RunsMeasuredOnTheCardsValidateWithZeroError) {
  std::string text;
  for (int c : {1, 8}) {
    MeasuredPoint p;
    p.config = llama_h200();
    p.isl = 512, p.osl = 64, p.concurrency = c, p.num_prompts = 2 * c;
    const auto pr = predict(p, {}, {}).value();
    const double total = pr.total_tok_s_per_gpu;  // one GPU
    text += sglang_line(c, 2 * c, 512.0 * 2 * c, 64.0 * 2 * c, pr.ttft_ms, pr.tpot_ms, pr.output_tok_s, total) + "\n";
  }
  const auto pts = parse_bench_points(text, "r.jsonl", llama_h200(), 1);
  ASSERT_TRUE(pts) << pts.error().message;
  const auto v = validate(*pts, {});
  ASSERT_TRUE(v) << v.error().message;
  ASSERT_EQ(v->metrics.size(), 4u);
  for (const auto& m : v->metrics) EXPECT_LT(m.max, 1e-6) << to_string(m.metric);
}
