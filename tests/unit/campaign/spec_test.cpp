#include "servebench/campaign/spec.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

const char* k_good = R"Y(name: demo
model: glm-5.3-flash
protocol:
  cold_cache: true
  max_cache_hit_rate: 0.01
  retries: 1
  num_prompts: "max(8, 2*c)"
  warmup_requests: 2
  percentile: nearest-rank
  request: {api: completions, stream: true, ignore_eos: true, temperature: 0, seed: 42}
  prompts: {source: corpus, path: texts/corpus.txt}
arms:
  - name: low-latency
    engine: sim
    launch: "servebench serve-sim --hw h200 --port {port}"
    gpus: 8
    gate: {required: false, problems: 4}
    env: {SGLANG_X: "1"}
  - name: attached
    engine: vllm
    base_url: "http://127.0.0.1:18080"
scenarios:
  - {name: chat, isl: 1000, osl: 1000, concurrency: [1, 16, 80]}
  - {name: long, isl: 65536, osl: 512, concurrency: 4}
baseline: {name: "reference report", ledger: baseline.jsonl}
telemetry: {interval_s: 10}
)Y";

// The error message of parsing `yaml`, or "parsed".
std::string error_of(const std::string& yaml) {
  auto spec = parse_campaign(yaml, "c.yaml", "/base");
  return spec ? "parsed" : spec.error().message;
}

TEST(CampaignSpec, ReadsEveryBlock) {
  auto spec = parse_campaign(k_good, "c.yaml", "/base");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->name, "demo");
  EXPECT_EQ(spec->protocol.num_prompts.text(), "max(8, 2*c)");
  EXPECT_EQ(spec->protocol.prompts.kind, PromptSourceKind::corpus);
  EXPECT_EQ(spec->protocol.prompts.path, "/base/texts/corpus.txt");
  ASSERT_EQ(spec->arms.size(), 2u);
  EXPECT_EQ(spec->arms[0].base_url, "http://127.0.0.1:{port}");  // the default for launched arms
  EXPECT_EQ(spec->arms[0].gpus, 8);
  EXPECT_FALSE(spec->arms[0].gate.required);
  EXPECT_EQ(spec->arms[0].gate.problems, 4);
  ASSERT_EQ(spec->arms[0].env.size(), 1u);
  EXPECT_EQ(spec->arms[0].env[0].value, "1");
  EXPECT_FALSE(spec->arms[1].launch.has_value());
  EXPECT_EQ(spec->arms[1].engine, engines::Engine::vllm);
  EXPECT_EQ(spec->scenarios[1].concurrency, (std::vector<std::int64_t>{4}));
  EXPECT_EQ(spec->baseline->ledger, "/base/baseline.jsonl");
  EXPECT_EQ(spec->telemetry.interval, std::chrono::seconds(10));
  EXPECT_NE(spec->find_arm("attached"), nullptr);
  EXPECT_EQ(spec->find_scenario("nope"), nullptr);
}

TEST(CampaignSpec, DefaultsFollowTheBrief) {
  auto spec = parse_campaign("name: d\narms: [{name: a, engine: sim, base_url: 'http://127.0.0.1:1'}]\n"
                             "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n",
                             "d.yaml", "/");
  ASSERT_TRUE(spec) << spec.error().message;
  const ProtocolSpec& p = spec->protocol;
  EXPECT_TRUE(p.cold_cache);
  EXPECT_EQ(p.max_cache_hit_rate, 0.01);
  EXPECT_EQ(p.retries, 1);
  EXPECT_EQ(*p.num_prompts.eval(3), 8);
  EXPECT_EQ(p.percentile, stats::PercentileMethod::nearest_rank);
  EXPECT_EQ(p.prompts.kind, PromptSourceKind::random_ids);
  EXPECT_EQ(p.request.timeout, std::chrono::seconds(3600)) << "a hung server cannot stall the campaign";
  EXPECT_TRUE(spec->arms[0].gate.enabled);
  EXPECT_TRUE(spec->arms[0].gate.required);
}

TEST(CampaignSpec, NullHitRateTurnsVerificationOff) {
  auto spec = parse_campaign("name: d\nprotocol: {max_cache_hit_rate: null}\n"
                             "arms: [{name: a, engine: sim, base_url: 'http://x:1'}]\n"
                             "scenarios: [{name: s, isl: 10, osl: 10, concurrency: [1]}]\n",
                             "d.yaml", "/");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_FALSE(spec->protocol.max_cache_hit_rate.has_value());
  EXPECT_FALSE(spec->protocol.verifies());
}

TEST(CampaignSpec, UnknownKeyNamesItsPosition) {
  std::string yaml = k_good;
  yaml.replace(yaml.find("  retries: 1"), 12, "  retry: 1");
  EXPECT_EQ(error_of(yaml).substr(0, 40), "c.yaml:6:3: unknown key 'retry' in proto");
}

TEST(CampaignSpec, WrongTypeNamesItsPosition) {
  std::string yaml = k_good;
  yaml.replace(yaml.find("gpus: 8"), 7, "gpus: eight");
  EXPECT_EQ(error_of(yaml), "c.yaml:16:11: arm 'low-latency'.gpus must be an integer, got 'eight'");
}

TEST(CampaignSpec, BadNumPromptsExpression) {
  std::string yaml = k_good;
  yaml.replace(yaml.find("\"max(8, 2*c)\""), 13, "\"max(8, 2*)\"");
  EXPECT_EQ(error_of(yaml), "c.yaml:7:16: protocol.num_prompts 'max(8, 2*)': column 10: unexpected ')'");
}

TEST(CampaignSpec, NumPromptsIsEvaluatedAtEveryConcurrency) {
  std::string yaml = k_good;
  yaml.replace(yaml.find("\"max(8, 2*c)\""), 13, "\"60 - c\"");
  EXPECT_EQ(error_of(yaml), "c.yaml:23:53: scenario 'chat': protocol.num_prompts '60 - c' gives -20 prompts at c=80; it must be positive")
      << "must fail only where it is non-positive";
}

TEST(CampaignSpec, DuplicateNames) {
  std::string arms = k_good;
  arms.replace(arms.find("name: attached"), 14, "name: low-latency");
  EXPECT_EQ(error_of(arms), "c.yaml:19:11: duplicate arm name 'low-latency'");
  std::string scenarios = k_good;
  scenarios.replace(scenarios.find("name: long"), 10, "name: chat");
  EXPECT_EQ(error_of(scenarios), "c.yaml:24:5: duplicate scenario name 'chat'");
}

TEST(CampaignSpec, ScenarioWithoutConcurrency) {
  std::string yaml = k_good;
  yaml.replace(yaml.find(", concurrency: 4"), 16, "");
  EXPECT_EQ(error_of(yaml),
            "c.yaml:24:5: scenario 'long' has no concurrency; give a list such as concurrency: [1, 8, 32]");
}

TEST(CampaignSpec, ConcurrencyMustIncrease) {
  std::string yaml = k_good;
  yaml.replace(yaml.find("[1, 16, 80]"), 11, "[1, 16, 16]");
  EXPECT_EQ(error_of(yaml), "c.yaml:23:53: scenario 'chat': concurrency must be strictly increasing");
}

TEST(CampaignSpec, YamlSyntaxError) {
  EXPECT_EQ(error_of("name: [unclosed\n").substr(0, 8), "c.yaml:2");
}

TEST(CampaignSpec, MissingBlocks) {
  EXPECT_EQ(error_of("name: x\nscenarios: []\n"),
            "c.yaml:1:1: the campaign needs 'arms': a list of {name, engine, launch or base_url, ...}");
  EXPECT_EQ(error_of("arms: []\n"), "c.yaml:1:1: campaign needs 'name'");
}

TEST(CampaignSpec, BadPromptSourceAndApi) {
  std::string source = k_good;
  source.replace(source.find("source: corpus, path: texts/corpus.txt"), 38, "source: sharegpt");
  EXPECT_EQ(error_of(source), "c.yaml:11:21: protocol.prompts.source 'sharegpt' is not one of random-ids, corpus");
  std::string api = k_good;
  api.replace(api.find("api: completions"), 16, "api: generate");
  EXPECT_EQ(error_of(api), "c.yaml:20:13: arm 'attached': protocol.request.api generate needs engine sglang or sim, not vllm");
}

TEST(CampaignSpec, ReadFileResolvesPathsAgainstItsDirectory) {
  auto spec = read_campaign(SERVEBENCH_SOURCE_DIR "/tests/fixtures/campaign/minimal.yaml");
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(spec->name, "minimal");
  EXPECT_EQ(read_campaign("/nonexistent/c.yaml").error().kind, util::ErrorKind::bad_input);
}

TEST(CampaignSpec, BackendFollowsEngineAndApi) {
  ArmSpec sim;
  sim.engine = engines::Engine::sim;
  EXPECT_EQ(backend_of(sim, RequestApi::completions), wire::Backend::sglang_oai);
  EXPECT_EQ(backend_of(sim, RequestApi::generate), wire::Backend::sim);
  EXPECT_EQ(backend_of(sim, RequestApi::chat), wire::Backend::sglang_oai_chat);
  ArmSpec vllm;
  vllm.engine = engines::Engine::vllm;
  EXPECT_EQ(backend_of(vllm, RequestApi::completions), wire::Backend::vllm);
  EXPECT_EQ(backend_of(vllm, RequestApi::chat), wire::Backend::vllm_chat);
}

}  // namespace
}  // namespace servebench::campaign
