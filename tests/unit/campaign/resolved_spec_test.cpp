#include <gtest/gtest.h>

#include "servebench/campaign/spec.hpp"

namespace servebench::campaign {
namespace {

const char* k_spec = R"Y(name: rt
protocol:
  max_cache_hit_rate: 0.02
  retries: 2
  num_prompts: "max(4, c)"
  request: {api: generate, temperature: 0.5, timeout_s: 30, stall_timeout_s: 20}
  prompts: {source: corpus, path: corpus.txt}
arms:
  - name: sim-a
    engine: sim
    launch: "servebench serve-sim --port {port} --sim-oracle"
    env: {K: "v w"}
    gpus: 2
    before: "echo 'hi'"
    gate: {required: false, tool_call: true}
    recipe: {catalog: glm, select: "hw=h200"}
scenarios:
  - {name: s, isl: 100, osl: 10, concurrency: [1, 4]}
baseline: {name: ref, ledger: base.jsonl}
)Y";

TEST(ResolvedSpec, ParsesBackToTheSameSpec) {
  auto spec = parse_campaign(k_spec, "rt.yaml", "/data");
  ASSERT_TRUE(spec) << spec.error().message;
  const std::string text = resolved_yaml(*spec);
  auto again = parse_campaign(text, "resolved.yaml", "/elsewhere");
  ASSERT_TRUE(again) << again.error().message << "\n" << text;
  const std::string again_text = resolved_yaml(*again);
  EXPECT_EQ(again_text.substr(again_text.find('\n')), text.substr(text.find('\n')));
  EXPECT_EQ(again->protocol.prompts.path, "/data/corpus.txt");  // absolute, so the base no longer matters
  EXPECT_EQ(again->protocol.max_cache_hit_rate, 0.02);
  EXPECT_EQ(again->protocol.request.api, RequestApi::generate);
  EXPECT_EQ(again->protocol.request.timeout, std::chrono::seconds(30));
  EXPECT_EQ(again->protocol.request.stall_timeout, std::chrono::seconds(20));
  EXPECT_EQ(again->arms[0].env[0].value, "v w");
  EXPECT_EQ(again->arms[0].gate.tool_call, ToolCallProbe::on);
  EXPECT_EQ(again->arms[0].base_url, "http://127.0.0.1:{port}");
  EXPECT_EQ(again->baseline->ledger, "/data/base.jsonl");
}

TEST(ResolvedSpec, WritesDefaultsOutAndReadableNumbers) {
  auto spec = parse_campaign("name: d\narms: [{name: a, engine: sim, base_url: 'http://x:1'}]\n"
                             "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n",
                             "d.yaml", "/");
  ASSERT_TRUE(spec);
  const std::string text = resolved_yaml(*spec);
  EXPECT_NE(text.find("max_cache_hit_rate: 0.01\n"), std::string::npos) << text;
  EXPECT_NE(text.find("num_prompts: \"max(8, 2*c)\""), std::string::npos) << text;
  EXPECT_NE(text.find("percentile: nearest-rank"), std::string::npos) << text;
  EXPECT_NE(text.find("source: random-ids"), std::string::npos) << text;
  EXPECT_NE(text.find("# resolved by servebench campaign from d.yaml"), std::string::npos);
}

TEST(ResolvedSpec, UnverifiedHitRateIsNull) {
  auto spec = parse_campaign("name: d\nprotocol: {max_cache_hit_rate: null}\narms: [{name: a, engine: sim, base_url: 'http://x:1'}]\n"
                             "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n",
                             "d.yaml", "/");
  ASSERT_TRUE(spec);
  auto again = parse_campaign(resolved_yaml(*spec), "r.yaml", "/");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(again->protocol.max_cache_hit_rate.has_value());
}

}  // namespace
}  // namespace servebench::campaign
