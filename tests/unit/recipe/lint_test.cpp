#include "servebench/recipe/lint.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "servebench/util/strings.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

LintReport lint_text(const std::string& text) {
  static const auto facts = load_lint_facts();
  EXPECT_TRUE(facts) << facts.error().message;
  const Catalog catalog = parsed(text);
  auto report = lint(catalog, *facts);
  EXPECT_TRUE(report) << report.error().message;
  return *report;
}

std::vector<Finding> with_rule(const LintReport& r, const std::string& rule) {
  std::vector<Finding> out;
  std::copy_if(r.findings.begin(), r.findings.end(), std::back_inserter(out), [&](const Finding& f) { return f.rule == rule; });
  return out;
}

std::string all_text(const LintReport& r) {
  std::string out;
  for (const auto& f : r.findings) out += to_text(f) + "\n";
  return out;
}

const std::string k_gb300_nvfp4_ll =
    "  - match: {hw: [gb300, gb200], strategy: low-latency, quant: nvfp4}\n"
    "    verification: *gb300_measured\n"
    "    flags: [*nvfp4_model, --tp-size 4,";

}  // namespace

TEST(Lint, ExampleCatalogHasNoErrors) {
  const LintReport r = lint_text(text_of(k_example_path));
  EXPECT_EQ(r.count(Severity::error), 0u) << all_text(r);
  EXPECT_EQ(r.selections_checked, 528u);  // every selection the page can reach
}

TEST(Lint, PlantedEpSize1IsOneRedundantDefaultNamingEverySelection) {
  const auto r = lint_text(replaced(text_of(k_example_path), k_gb300_nvfp4_ll, k_gb300_nvfp4_ll + " --ep-size 1,"));
  const auto found = with_rule(r, "redundant-default");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].severity, Severity::warning);
  EXPECT_EQ(found[0].flag, "--ep-size");
  EXPECT_EQ(found[0].origin, "cell");
  EXPECT_EQ(found[0].message, "--ep-size 1 is the engine default; leave it out");
  EXPECT_EQ(found[0].selection, "hw=gb300,strategy=low-latency,quant=nvfp4");
  EXPECT_EQ(found[0].selections.size(), 72u);  // 48 reachable overlay combinations on gb300, 24 on gb200 (no DCP)
  EXPECT_TRUE(found[0].where.starts_with("catalog.yaml:118:")) << found[0].where;
}

TEST(Lint, RuleContradictingAVerifiedSelectionIsAWarning) {
  // TP32 breaks MoE divisibility (2048 / 32 = 64). gb300 marks some of these selections verified:
  // there the rule is a warning, elsewhere an error.
  const std::string text = replaced(text_of(k_example_path), k_gb300_nvfp4_ll,
                                    replaced(k_gb300_nvfp4_ll, "--tp-size 4,", "--tp-size 32,"));
  const auto r = lint_text(text);
  const auto moe = with_rule(r, "divisibility-moe");
  ASSERT_EQ(moe.size(), 2u) << all_text(r);
  const auto& error = moe[0].severity == Severity::error ? moe[0] : moe[1];
  const auto& warning = moe[0].severity == Severity::error ? moe[1] : moe[0];
  EXPECT_EQ(error.severity, Severity::error);
  EXPECT_EQ(error.message, "moe_intermediate_size 2048 / MoE-TP 32 (TP 32 / EP 1) = 64, not a multiple of 128");
  EXPECT_EQ(warning.severity, Severity::warning);
  EXPECT_EQ(warning.selections, (std::vector<std::string>{"hw=gb300,strategy=low-latency,quant=nvfp4",
                                                          "hw=gb300,strategy=low-latency,quant=nvfp4,kvDsaPair=bf16-tilelang"}));
  EXPECT_NE(warning.message.find("marks this selection verified"), std::string::npos);
  EXPECT_EQ(error.selections.size() + warning.selections.size(), 72u);
  // The GPU count is a fact of the catalog, not engine knowledge: an error everywhere.
  EXPECT_FALSE(with_rule(r, "gpu-count").empty());
  EXPECT_EQ(with_rule(r, "gpu-count")[0].severity, Severity::error);
  // The catalog can ask for errors on verified selections too.
  const auto strict = lint_text("lint: {strict_on_verified: true}\n" + text);
  const auto strict_moe = with_rule(strict, "divisibility-moe");
  ASSERT_EQ(strict_moe.size(), 1u) << all_text(strict);
  EXPECT_EQ(strict_moe[0].severity, Severity::error);
}

TEST(Lint, FlashinferTrtllmOnHopperNeedsSm100) {
  const std::string from = "--mem-fraction-static 0.70, *tilelang, --moe-runner-backend deep_gemm,";
  const auto r = lint_text(replaced(text_of(k_example_path), from,
                                    "--mem-fraction-static 0.70, *tilelang, --moe-runner-backend flashinfer_trtllm,"));
  const auto found = with_rule(r, "arch-backend");
  ASSERT_FALSE(found.empty()) << all_text(r);
  const auto error = std::find_if(found.begin(), found.end(), [](const Finding& f) { return f.severity == Severity::error; });
  ASSERT_NE(error, found.end()) << all_text(r);
  EXPECT_TRUE(error->selection.starts_with("hw=h100,strategy=low-latency,quant=fp8")) << error->selection;
  EXPECT_EQ(error->flag, "--moe-runner-backend");
  EXPECT_NE(error->message.find("SM100-class"), std::string::npos);
  EXPECT_TRUE(error->message.ends_with("; h100 is sm_90 (hopper)")) << error->message;
}

TEST(Lint, SpeculationWithDpAttentionOnAVerifiedCellIsAWarning) {
  const std::string from = "  - match: {hw: [b300, b200], strategy: low-latency, quant: fp8}\n"
                           "    verification: [{when: {bcg: \"off\", hicache: \"off\"}, then: verified}]\n"
                           "    flags: [*fp8_model, --tp-size 8, --ep-size 8,";
  const auto r = lint_text(replaced(text_of(k_example_path), from, from + " --enable-dp-attention, --dp-size 8,"));
  const auto found = with_rule(r, "conflict");
  ASSERT_EQ(found.size(), 2u) << all_text(r);
  for (const auto& f : found) {
    EXPECT_EQ(f.flag, "--enable-dp-attention");
    EXPECT_NE(f.message.find("spec-with-dp-attention"), std::string::npos);
  }
  const auto warnings = std::count_if(found.begin(), found.end(), [](const Finding& f) { return f.severity == Severity::warning; });
  EXPECT_EQ(warnings, 1);
}

TEST(Lint, MissingAndUnreachableCells) {
  std::string text = replaced(text_of(k_example_path), "  - match: {hw: [b300, b200], strategy: low-latency, quant: fp8}\n",
                              "  - match: {hw: [b300], strategy: low-latency, quant: fp8}\n");
  text = replaced(text, "  - match: {hw: h100, strategy: high-throughput, quant: fp8}\n",
                  "  - {match: {hw: h100, strategy: high-throughput, quant: nvfp4}, flags: [\"--model-path {{MODEL_NAME}}\"]}\n"
                  "  - match: {hw: h100, strategy: high-throughput, quant: fp8}\n");
  const auto r = lint_text(text);
  const auto missing = with_rule(r, "missing-cell");
  ASSERT_EQ(missing.size(), 1u) << all_text(r);
  EXPECT_EQ(missing[0].selection, "hw=b200,strategy=low-latency,quant=fp8");
  const auto unreachable = with_rule(r, "unreachable-cell");
  ASSERT_EQ(unreachable.size(), 1u) << all_text(r);
  EXPECT_NE(unreachable[0].message.find("Hopper cannot serve this checkpoint"), std::string::npos);
}

TEST(Lint, MistakeInAnOverlayIsOneFindingAtItsEntry) {
  const auto r = lint_text(replaced(text_of(k_example_path), "--dcp-size 4, --dcp-comm-backend a2a", "--dcp-sise 4, --dcp-comm-backend a2a"));
  const auto found = with_rule(r, "unknown-flag");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].flag, "--dcp-sise");
  EXPECT_EQ(found[0].origin, "overlay dcp=4");
  EXPECT_TRUE(found[0].where.starts_with("catalog.yaml:85:")) << found[0].where;
  EXPECT_EQ(found[0].selections.size(), 96u);  // dcp=4 is reachable on gb300 only: 4 cells x 24
}

TEST(Lint, SameFlagTwiceAfterOverlays) {
  // mini's kv=fp8 and tp=tp8 both replace the cell's --kv-cache-dtype.
  const auto r = lint_text(text_of(k_mini_path));
  const auto found = with_rule(r, "duplicate-flag");
  ASSERT_FALSE(found.empty()) << all_text(r);
  EXPECT_EQ(found[0].flag, "--kv-cache-dtype");
  EXPECT_EQ(found[0].origin, "overlay kv=fp8 + overlay tp=tp8");
  EXPECT_EQ(found[0].message, "given 2 times after overlays (fp8_e4m3, auto); strip the earlier one");
}

TEST(Lint, HeadsAndKvHeadsMustSplitEvenly) {
  std::string text = replaced(text_of(k_mini_path), "attention_heads: 64, kv_heads: 8", "attention_heads: 60, kv_heads: 6");
  const auto r = lint_text(text);
  const auto heads = with_rule(r, "divisibility-heads");
  ASSERT_FALSE(heads.empty()) << all_text(r);
  EXPECT_TRUE(heads[0].message.starts_with("60 attention heads do not split evenly over attention-TP 8")) << heads[0].message;
  const auto kv = with_rule(r, "divisibility-kv-heads");
  ASSERT_FALSE(kv.empty()) << all_text(r);
  EXPECT_EQ(kv[0].message, "6 KV heads neither split nor replicate evenly over attention-TP 4");
}

TEST(Lint, EpMustDivideTp) {
  const auto r = lint_text(replaced(text_of(k_mini_path), "--tp-size 8, \"--port", "--tp-size 8, --ep-size 3, \"--port"));
  const auto found = with_rule(r, "divisibility-ep");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].message, "EP 3 must divide TP 8");
}

TEST(Lint, NodeFlagWrittenByHandMustMatchTheNodeCount) {
  const auto r = lint_text(replaced(text_of(k_mini_path), "--tp-size 8, \"--port", "--tp-size 8, --nnodes 2, \"--port"));
  const auto found = with_rule(r, "nnodes-mismatch");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].message, "--nnodes 2 but the selection runs on 1 node(s)");
}

TEST(Lint, MultiNodeCellGetsItsNodeFlagsAndGpus) {
  // TP16 on two 8-GPU nodes: the node flags are inserted, so nothing to report about them.
  const auto r = lint_text(replaced(text_of(k_mini_path), "  - match: {hw: h100, quant: fp8}\n    flags: [\"--model-path {{MODEL_NAME}}\", --tp-size 8,",
                                    "  - match: {hw: h100, quant: fp8}\n    nnodes: 2\n    flags: [\"--model-path {{MODEL_NAME}}\", --tp-size 16,"));
  EXPECT_TRUE(with_rule(r, "nnodes-mismatch").empty()) << all_text(r);
  EXPECT_TRUE(with_rule(r, "gpu-count").empty()) << all_text(r);
}

TEST(Lint, OverlayDefaultLeftExplicitIsReported) {
  // mini's tp8 overlay writes --kv-cache-dtype auto, the engine default.
  const auto r = lint_text(text_of(k_mini_path));
  const auto found = with_rule(r, "redundant-default");
  ASSERT_FALSE(found.empty()) << all_text(r);
  EXPECT_EQ(found[0].flag, "--kv-cache-dtype");
  EXPECT_EQ(found[0].origin, "overlay tp=tp8");
}

namespace {

const std::string k_planted = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/glm-5.3-flash.planted.yaml";

struct Planted {
  int line = 0;
  std::string rule;
};

// The `# planted: <rule>` marks of the fixture, by line.
std::vector<Planted> planted_marks(const std::string& text) {
  std::vector<Planted> out;
  int line = 0;
  for (const auto l : servebench::util::split(text, '\n')) {
    ++line;
    const auto at = l.find("# planted: ");
    if (at != std::string_view::npos && !l.starts_with("#")) out.push_back({line, std::string(l.substr(at + 11))});
  }
  return out;
}

}  // namespace

TEST(LintPlanted, EveryPlantedMistakeIsOneFindingAndNothingElse) {
  const std::string text = text_of(k_planted);
  const auto marks = planted_marks(text);
  ASSERT_EQ(marks.size(), 11u);
  const LintReport r = lint_text(text);
  EXPECT_EQ(r.findings.size(), marks.size()) << all_text(r);
  for (const auto& mark : marks) {
    const std::string at = "catalog.yaml:" + std::to_string(mark.line) + ":";
    const auto n = std::count_if(r.findings.begin(), r.findings.end(),
                                 [&](const Finding& f) { return f.rule == mark.rule && f.where.starts_with(at); });
    EXPECT_EQ(n, 1) << mark.rule << " at line " << mark.line << "\n" << all_text(r);
  }
}

TEST(LintPlanted, EachFindingNamesTheSelectionsItAffects) {
  const LintReport r = lint_text(text_of(k_planted));
  const auto count = [&](const std::string& rule, const std::string& flag) -> std::size_t {
    for (const auto& f : r.findings) {
      if (f.rule == rule && f.flag == flag) return f.selections.size();
    }
    return 0;
  };
  EXPECT_EQ(count("invalid-choice", "--kv-cache-dtype"), 240u);  // every reachable Blackwell selection with fp8-trtllm
  EXPECT_EQ(count("unknown-flag", "--mm-transport"), 264u);      // every reachable selection with mmTransport=cpu
  EXPECT_EQ(count("unknown-flag", "--dcp-comm-backed"), 96u);    // dcp=4: gb300 only
  EXPECT_EQ(count("invalid-type", "--cuda-graph-max-bs-decode"), 48u);
  EXPECT_EQ(count("divisibility-ep", "--ep-size"), 48u);
  EXPECT_EQ(count("arch-backend", "--attention-backend"), 48u);
  EXPECT_EQ(count("abbreviated-flag", "--tp-size"), 72u);
  EXPECT_EQ(count("redundant-default", "--ep-size"), 72u);
  EXPECT_EQ(count("duplicate-flag", "--reasoning-parser"), 12u);
  EXPECT_EQ(count("out-of-range", "--mem-fraction-static"), 12u);
  EXPECT_EQ(count("extra-flag-known", "--dcp-size"), 1u);
  EXPECT_EQ(r.count(Severity::error), 8u);
  const auto arch = std::find_if(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.rule == "arch-backend"; });
  ASSERT_NE(arch, r.findings.end());
  EXPECT_EQ(arch->message, "--attention-backend fa3: FlashAttention 3 kernels are Hopper-only; b300 is sm_103 (blackwell); "
                           "b200 is sm_100 (blackwell)");
}

TEST(Lint, VllmMultiNodeCountsTheGpusOfBothNodes) {
  const std::string path = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/vllm.yaml";
  const auto clean = lint_text(text_of(path));
  EXPECT_EQ(clean.count(Severity::error), 0u) << all_text(clean);
  const auto r = lint_text(replaced(text_of(path), "--pipeline-parallel-size 2", "--pipeline-parallel-size 4"));
  const auto found = with_rule(r, "gpu-count");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].message, "needs 32 GPUs (TP 8 x PP 4 x DP 1); h100 has 8 per node x 2 node(s) = 16");
}
