#include "servebench/recipe/lint.hpp"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

using namespace servebench::recipe;

namespace {

const std::string k_example = std::string(SERVEBENCH_SOURCE_DIR) + "/examples/catalogs/glm-5.3-flash.yaml";
const std::string k_mini = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/mini.yaml";

std::string text_of(const std::string& path) { return *servebench::util::read_file(path); }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

LintReport lint_text(const std::string& text) {
  static const auto facts = load_lint_facts();
  static const auto gpus = load_gpu_facts();
  EXPECT_TRUE(facts && gpus);
  auto catalog = parse_catalog(text, "catalog.yaml", *gpus);
  EXPECT_TRUE(catalog) << catalog.error().message;
  auto report = lint(*catalog, *facts);
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

}  // namespace

TEST(Lint, ExampleCatalogIsClean) {
  const LintReport r = lint_text(text_of(k_example));
  EXPECT_TRUE(r.findings.empty()) << all_text(r);
  EXPECT_GT(r.selections_checked, 100u);
}

TEST(Lint, PlantedEpSize1IsRedundantDefault) {
  const auto r = lint_text(replaced(text_of(k_example), "flags: &bw_ll_fp8\n", "flags: &bw_ll_fp8\n      - --ep-size 1\n"));
  const auto found = with_rule(r, "redundant-default");
  ASSERT_EQ(found.size(), 4u) << all_text(r);  // the four Blackwell cells sharing the list
  EXPECT_EQ(found[0].severity, Severity::warning);
  EXPECT_EQ(found[0].flag, "--ep-size");
  EXPECT_EQ(found[0].origin, "cell");
  EXPECT_EQ(found[0].selection, "hw=gb300,strategy=low-latency,quant=fp8");
  EXPECT_EQ(found[0].message, "--ep-size 1 is the engine default; leave it out");
  EXPECT_EQ(r.count(Severity::error), 0u) << all_text(r);
}

TEST(Lint, PlantedTp32BreaksMoeDivisibilityAndGpuCount) {
  const auto r = lint_text(replaced(text_of(k_example), "flags: &bw_ll_fp8\n      - --model-path {{MODEL_NAME}}\n      - --trust-remote-code\n      - --tp-size 4",
                                    "flags: &bw_ll_fp8\n      - --model-path {{MODEL_NAME}}\n      - --trust-remote-code\n      - --tp-size 32"));
  const auto moe = with_rule(r, "divisibility-moe");
  ASSERT_FALSE(moe.empty()) << all_text(r);
  EXPECT_EQ(moe[0].flag, "--tp-size");
  EXPECT_EQ(moe[0].severity, Severity::error);
  EXPECT_EQ(moe[0].message, "moe_intermediate_size 2048 / MoE-TP 32 (TP 32 / EP 1) = 64, not a multiple of 128");
  const auto gpus = with_rule(r, "gpu-count");
  ASSERT_FALSE(gpus.empty());
  EXPECT_EQ(gpus[0].message, "needs 32 GPUs (TP 32 x PP 1 x DP 1) but gb300 has 4 per node x 1 node(s) = 4");
  EXPECT_GE(r.count(Severity::error), 2u);
}

TEST(Lint, PlantedFlashinferTrtllmOnH100NeedsSm100) {
  const auto r = lint_text(replaced(text_of(k_example), "  - {match: {hw: h100, strategy: low-latency, quant: fp8}, flags: *hopper_ll}\n",
                                    "  - match: {hw: h100, strategy: low-latency, quant: fp8}\n"
                                    "    flags: [\"--model-path {{MODEL_NAME}}\", --tp-size 8, --ep-size 8, --moe-runner-backend flashinfer_trtllm]\n"));
  const auto found = with_rule(r, "arch-backend");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].selection, "hw=h100,strategy=low-latency,quant=fp8");
  EXPECT_EQ(found[0].flag, "--moe-runner-backend");
  EXPECT_NE(found[0].message.find("SM100-class"), std::string::npos);
  EXPECT_NE(found[0].message.find("h100 is sm_90 (hopper)"), std::string::npos);
}

TEST(Lint, SpeculationWithDpAttentionConflicts) {
  // Without the catalog's own rule, the engine conflict (data/recipe_lint.yaml) still catches it.
  const auto r = lint_text(replaced(text_of(k_example),
                                    "        disable:\n          - when: {strategy: [low-latency]}\n            reason: MTP with DP-attention is not validated\n",
                                    ""));
  const auto found = with_rule(r, "conflict");
  ASSERT_FALSE(found.empty()) << all_text(r);
  EXPECT_EQ(found[0].severity, Severity::error);
  EXPECT_EQ(found[0].flag, "--enable-dp-attention");
  EXPECT_EQ(found[0].origin, "overlay dpAttention=dp4");
  EXPECT_NE(found[0].message.find("spec-with-dp-attention"), std::string::npos);
}

TEST(Lint, Tp8OnFourGpuNodesNeedsMoreGpus) {
  const auto r = lint_text(replaced(text_of(k_example),
                                    "        disable:\n          - when: {hw: [gb300, gb200]}\n            reason: TP=8/EP=8 needs 8 GPUs; GB300/GB200 recipes run on 4\n",
                                    ""));
  const auto found = with_rule(r, "gpu-count");
  ASSERT_FALSE(found.empty()) << all_text(r);
  EXPECT_EQ(found[0].origin, "overlay layout=tp8-ep8");
  EXPECT_NE(found[0].selection.find("layout=tp8-ep8"), std::string::npos);
  EXPECT_NE(found[0].message.find("needs 8 GPUs"), std::string::npos);
}

TEST(Lint, OptionValidatedElsewhereWarns) {
  const auto r = lint_text(replaced(text_of(k_example),
                                    "        disable:\n          - when: {hw: [h200, h100]}\n            reason: DCP recipes are validated on Blackwell cells only\n",
                                    ""));
  const auto found = with_rule(r, "unvalidated-hardware");
  ASSERT_FALSE(found.empty()) << all_text(r);
  EXPECT_EQ(found[0].severity, Severity::warning);
  EXPECT_TRUE(found[0].selection.starts_with("hw=h200")) << found[0].selection;
  EXPECT_EQ(found[0].origin, "overlay dcp=dcp4");
  EXPECT_EQ(found[0].message, "dcp=dcp4 is validated only on gb300, gb200, b300, b200 (also in 3 more cell(s))");
}

TEST(Lint, MissingAndUnreachableCells) {
  std::string text = replaced(text_of(k_example), "  - {match: {hw: b200, strategy: low-latency, quant: fp8}, flags: *bw_ll_fp8}\n", "");
  text = replaced(text, "  - {match: {hw: h100, strategy: high-throughput, quant: fp8}, flags: *hopper_ht}\n",
                  "  - {match: {hw: h100, strategy: high-throughput, quant: fp8}, flags: *hopper_ht}\n"
                  "  - {match: {hw: h100, strategy: high-throughput, quant: nvfp4}, flags: *hopper_ht}\n");
  const auto r = lint_text(text);
  const auto missing = with_rule(r, "missing-cell");
  ASSERT_EQ(missing.size(), 1u) << all_text(r);
  EXPECT_EQ(missing[0].selection, "hw=b200,strategy=low-latency,quant=fp8");
  const auto unreachable = with_rule(r, "unreachable-cell");
  ASSERT_EQ(unreachable.size(), 1u) << all_text(r);
  EXPECT_NE(unreachable[0].message.find("NVFP4 W4A4 kernels are Blackwell-only"), std::string::npos);
}

TEST(Lint, UnknownFlagIsReportedOnceAtTheOverlay) {
  const auto r = lint_text(replaced(text_of(k_example), "flags: [--dcp-size 4]", "flags: [--dcp-sise 4]"));
  const auto found = with_rule(r, "unknown-flag");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].flag, "--dcp-sise");
  EXPECT_EQ(found[0].origin, "overlay dcp=dcp4");
  EXPECT_TRUE(found[0].where.starts_with("catalog.yaml:87:")) << found[0].where;
  EXPECT_NE(found[0].message.find("also in 15 more cell(s)"), std::string::npos) << found[0].message;
}

TEST(Lint, SameFlagTwiceAfterOverlays) {
  // The cell says --tp 4; an overlay adds --tp-size 8 without stripping: the alias is the same flag.
  const auto r = lint_text(replaced(text_of(k_mini), "strip_prefixes: [--tp, --kv-cache-dtype]", "strip_prefixes: [--kv-cache-dtype]"));
  const auto found = with_rule(r, "duplicate-flag");
  ASSERT_EQ(found.size(), 3u) << all_text(r);  // cell + overlay: reported per cell
  EXPECT_EQ(found[0].flag, "--tp-size");
  EXPECT_EQ(found[0].origin, "cell + overlay tp=tp8");
  EXPECT_EQ(found[0].message, "given 2 times after overlays (4, 8); strip the earlier one");
}

TEST(Lint, HeadsAndKvHeadsMustSplitEvenly) {
  std::string text = replaced(text_of(k_mini), "attention_heads: 64, kv_heads: 8", "attention_heads: 60, kv_heads: 6");
  const auto r = lint_text(text);
  const auto heads = with_rule(r, "divisibility-heads");
  ASSERT_FALSE(heads.empty()) << all_text(r);
  EXPECT_TRUE(heads[0].message.starts_with("60 attention heads do not split evenly over attention-TP 8")) << heads[0].message;
  const auto kv = with_rule(r, "divisibility-kv-heads");
  ASSERT_FALSE(kv.empty()) << all_text(r);
  EXPECT_EQ(kv[0].message, "6 KV heads neither split nor replicate evenly over attention-TP 4");
}

TEST(Lint, EpMustDivideTp) {
  const auto r = lint_text(replaced(text_of(k_mini), "--tp-size 8, \"--port", "--tp-size 8, --ep-size 3, \"--port"));
  const auto found = with_rule(r, "divisibility-ep");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].message, "EP 3 must divide TP 8");
}

TEST(Lint, CellNnodesMustMatchTheCommand) {
  const auto r = lint_text(replaced(text_of(k_mini), "  - match: {hw: h100, quant: fp8}\n", "  - match: {hw: h100, quant: fp8}\n    nnodes: 2\n"));
  const auto found = with_rule(r, "nnodes-mismatch");
  ASSERT_EQ(found.size(), 1u) << all_text(r);
  EXPECT_EQ(found[0].message, "--nnodes 1 but the cell says nnodes 2");
}

TEST(Lint, OverlayDefaultLeftExplicitIsReported) {
  // mini's tp8 overlay writes --kv-cache-dtype auto, the engine default.
  const auto r = lint_text(text_of(k_mini));
  const auto found = with_rule(r, "redundant-default");
  ASSERT_FALSE(found.empty()) << all_text(r);
  EXPECT_EQ(found[0].flag, "--kv-cache-dtype");
  EXPECT_EQ(found[0].origin, "overlay tp=tp8");
}
