#include "servebench/recipe/lint_facts.hpp"

#include <gtest/gtest.h>

using namespace servebench::recipe;

namespace {

const std::string k_arch = "requirements:\n  - {id: r, flags: [--x], values: [a], sm: [100], reason: why}\n";
const std::string k_lint = "engines:\n  sglang:\n    parallelism: {tp: --tp-size}\n"
                           "    conflicts: [{id: c, flags: [--a, --b], severity: warning, reason: no}]\n"
                           "kernels: {moe_intermediate_multiple: 64}\n";

}  // namespace

TEST(LintFacts, ParsesRequirementsParallelismConflictsAndKernels) {
  const auto f = parse_lint_facts({}, k_arch, "arch.yaml", k_lint, "lint.yaml");
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->requirements.size(), 1u);
  EXPECT_EQ(f->requirements[0].engine, servebench::flags::Dialect::sglang);
  const auto* e = f->engine(servebench::flags::Dialect::sglang);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->parallelism.tp, "--tp-size");
  EXPECT_EQ(e->parallelism.ep, "");
  ASSERT_EQ(e->conflicts.size(), 1u);
  EXPECT_EQ(e->conflicts[0].severity, Severity::warning);
  EXPECT_EQ(f->moe_intermediate_multiple, 64);
  EXPECT_EQ(f->engine(servebench::flags::Dialect::vllm), nullptr);
}

TEST(LintFacts, RequirementAllowsBySmOrFamily) {
  ArchRequirement r;
  r.sm = {100, 103};
  r.families = {"blackwell-rtx"};
  EXPECT_TRUE(r.allows({"gb300", "", "blackwell", 103}));
  EXPECT_TRUE(r.allows({"rtx-pro-6000", "", "blackwell-rtx", 120}));
  EXPECT_FALSE(r.allows({"h100", "", "hopper", 90}));
}

TEST(LintFacts, MalformedDataNamesPosition) {
  auto f = parse_lint_facts({}, "requirements:\n  - {id: r, flags: [--x], values: [a], reason: why}\n", "arch.yaml", k_lint, "lint.yaml");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message, "arch.yaml:2:5: requirement 'r' needs flags, values and sm or families");
  f = parse_lint_facts({}, k_arch, "arch.yaml", "engines:\n  sglang: {conflicts: [{id: c, flags: [--a], reason: r}]}\n", "lint.yaml");
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().message.find("needs at least two flags"), std::string::npos);
  f = parse_lint_facts({}, k_arch, "arch.yaml", "engine: {}\n", "lint.yaml");
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().message.find("unknown key 'engine'"), std::string::npos);
}

TEST(LintFacts, ShippedDataFilesLoad) {
  const auto f = load_lint_facts();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_FALSE(f->requirements.empty());
  EXPECT_FALSE(f->gpus.empty());
  EXPECT_EQ(f->moe_intermediate_multiple, 128);
  ASSERT_NE(f->engine(servebench::flags::Dialect::sglang), nullptr);
  EXPECT_EQ(f->engine(servebench::flags::Dialect::sglang)->parallelism.dp_attention, "--enable-dp-attention");
}
