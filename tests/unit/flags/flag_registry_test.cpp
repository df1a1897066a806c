#include "servebench/flags/flag_registry.hpp"

#include <set>

#include <gtest/gtest.h>

namespace servebench::flags {
namespace {

TEST(FlagRegistry, ParsesFlagFieldsAndDefaults) {
  const std::string yaml = R"(dialect: vllm
underscore_as_dash: true
flags:
  - {name: --tensor-parallel-size, aliases: [-tp], default: "1", group: parallelism}
  - {name: --enforce-eager, value: none}
  - {name: --host, behaviour: false}
  - {name: --cuda-graph-sizes, value: many, arch: any, notes: older}
)";
  auto reg = FlagRegistry::parse(yaml, "vllm.yaml");
  ASSERT_TRUE(reg) << reg.error().message;
  EXPECT_EQ(reg->dialect(), Dialect::vllm);
  const FlagSpec* tp = reg->find("-tp");
  ASSERT_NE(tp, nullptr);
  EXPECT_EQ(tp->name, "--tensor-parallel-size");
  EXPECT_EQ(tp->arity, FlagArity::one);
  EXPECT_EQ(tp->default_value, "1");
  EXPECT_TRUE(tp->behavioural);
  EXPECT_EQ(reg->find("--tensor_parallel_size"), tp);  // vLLM accepts snake_case
  EXPECT_EQ(reg->find("--enforce-eager")->arity, FlagArity::none);
  EXPECT_FALSE(reg->find("--host")->behavioural);
  EXPECT_EQ(reg->find("--cuda-graph-sizes")->arity, FlagArity::many);
  EXPECT_EQ(reg->find("--cuda-graph-sizes")->notes, "older");
  EXPECT_EQ(reg->find("--no-such-flag"), nullptr);
}

TEST(FlagRegistry, UnderscoresAreDistinctWithoutTheOption) {
  auto reg = FlagRegistry::parse("dialect: sglang\nflags:\n  - {name: --tp-size}\n", "s.yaml");
  ASSERT_TRUE(reg);
  EXPECT_NE(reg->find("--tp-size"), nullptr);
  EXPECT_EQ(reg->find("--tp_size"), nullptr);
}

TEST(FlagRegistry, RejectsUnknownKeyWithPosition) {
  auto reg = FlagRegistry::parse("dialect: sglang\nflags:\n  - {name: --tp-size, valeu: one}\n", "s.yaml");
  ASSERT_FALSE(reg);
  EXPECT_EQ(reg.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(reg.error().message.find("s.yaml:3:"), std::string::npos) << reg.error().message;
  EXPECT_NE(reg.error().message.find("valeu"), std::string::npos);
}

TEST(FlagRegistry, RejectsBadArityAndBadName) {
  auto arity = FlagRegistry::parse("dialect: sglang\nflags:\n  - {name: --x, value: two}\n", "s.yaml");
  ASSERT_FALSE(arity);
  EXPECT_NE(arity.error().message.find("none, one, many or optional"), std::string::npos);
  auto name = FlagRegistry::parse("dialect: sglang\nflags:\n  - {name: tp-size}\n", "s.yaml");
  ASSERT_FALSE(name);
  EXPECT_NE(name.error().message.find("must start with '-'"), std::string::npos);
  auto dialect = FlagRegistry::parse("dialect: tgi\n", "s.yaml");
  ASSERT_FALSE(dialect);
  EXPECT_NE(dialect.error().message.find("s.yaml:1:"), std::string::npos) << dialect.error().message;
}

TEST(FlagRegistry, EnvironmentIsBehaviouralByPrefixMinusIgnored) {
  auto reg = FlagRegistry::parse("dialect: sglang\nenv_prefixes: [SGLANG_, CUDA_]\nenv_ignored: [CUDA_VISIBLE_DEVICES]\n",
                                 "s.yaml");
  ASSERT_TRUE(reg);
  EXPECT_TRUE(reg->env_is_behavioural("SGLANG_SIMULATE_ACC_LEN"));
  EXPECT_TRUE(reg->env_is_behavioural("CUDA_LAUNCH_BLOCKING"));
  EXPECT_FALSE(reg->env_is_behavioural("CUDA_VISIBLE_DEVICES"));
  EXPECT_FALSE(reg->env_is_behavioural("HF_TOKEN"));
}

TEST(FlagRegistry, EveryShippedDialectLoadsWithoutDuplicateSpellings) {
  for (Dialect d : {Dialect::sglang, Dialect::vllm, Dialect::llamacpp, Dialect::trtllm}) {
    auto reg = flag_registry(d);
    ASSERT_TRUE(reg) << reg.error().message;
    EXPECT_EQ((*reg)->dialect(), d);
    std::set<std::string> seen;
    for (const auto& f : (*reg)->flags()) {
      EXPECT_TRUE(seen.insert(f.name).second) << to_string(d) << " repeats " << f.name;
      for (const auto& a : f.aliases) EXPECT_TRUE(seen.insert(a).second) << to_string(d) << " repeats " << a;
    }
    EXPECT_GT(seen.size(), 15u) << to_string(d);
  }
}

TEST(FlagRegistry, ShippedSglangCoversCookbookFlags) {
  auto reg = flag_registry(Dialect::sglang);
  ASSERT_TRUE(reg);
  for (const char* flag : {"--tp", "--model", "--ep-size", "--enable-dp-attention", "--mem-fraction-static",
                           "--max-running-requests", "--chunked-prefill-size", "--disable-radix-cache",
                           "--kv-cache-dtype", "--moe-runner-backend", "--moe-a2a-backend", "--cuda-graph-max-bs",
                           "--speculative-algorithm", "--speculative-num-draft-tokens", "--hicache-ratio",
                           "--context-length", "--tool-call-parser", "--reasoning-parser", "--trust-remote-code",
                           "--page-size", "--quantization", "--decode-attention-backend"}) {
    EXPECT_NE((*reg)->find(flag), nullptr) << flag;
  }
  EXPECT_EQ((*reg)->find("--ep-size")->default_value, "1");
  EXPECT_FALSE((*reg)->find("--port")->behavioural);
  EXPECT_FALSE((*reg)->find("--enable-metrics")->behavioural);
}

TEST(FlagRegistry, ShippedSglangIsTheCompiledFlagList) {
  auto reg = flag_registry(Dialect::sglang);
  ASSERT_TRUE(reg);
  EXPECT_EQ((*reg)->flags().size(), 497u);  // every row of data/flags/sglang.tsv
  const FlagSpec* kv = (*reg)->find("--kv-cache-dtype");
  ASSERT_NE(kv, nullptr);
  EXPECT_EQ(kv->type, "str");
  EXPECT_EQ(kv->choices.front(), "auto");
  EXPECT_FALSE(kv->choices_computed);
  EXPECT_TRUE((*reg)->find("--reasoning-parser")->choices_computed);
  EXPECT_EQ((*reg)->find("--tensor-parallel-size")->name, "--tp-size");
  ASSERT_TRUE((*reg)->find("--mem-fraction-static")->range);
  EXPECT_EQ((*reg)->find("--mem-fraction-static")->range->max, 1.0);
  EXPECT_EQ((*reg)->find("--uvicorn-access-log-exclude-prefixes")->arity, FlagArity::optional);
}

TEST(FlagRegistry, ArgparseAbbreviationNamingOneFlagOnly) {
  auto reg = flag_registry(Dialect::sglang);
  ASSERT_TRUE(reg);
  EXPECT_EQ((*reg)->find("--tp")->name, "--tp-size");
  EXPECT_EQ((*reg)->find_exact("--tp"), nullptr);
  EXPECT_EQ((*reg)->find("--pp"), nullptr);  // --pp-size, --pp-max-micro-batch-size, --pp-async-batch-depth
  EXPECT_EQ((*reg)->find("--speculative-num-draft")->name, "--speculative-num-draft-tokens");
  auto plain = FlagRegistry::parse("dialect: vllm\nflags:\n  - {name: --tensor-parallel-size}\n", "v.yaml");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("--tensor"), nullptr);  // abbreviations only where the data says the parser takes them
}

TEST(FlagRegistry, BehaviourAndRangesNeedAListedFlag) {
  const auto unknown = FlagRegistry::parse("dialect: sglang\nflag_list: sglang.tsv\nnot_behavioural: [--hots]\n", "s.yaml");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message, "s.yaml:3:18: --hots is not in sglang.tsv");
  const auto range = FlagRegistry::parse("dialect: sglang\nflag_list: sglang.tsv\nranges: [{flag: --tp-size, min: 1, above: 0}]\n", "s.yaml");
  ASSERT_FALSE(range);
  EXPECT_NE(range.error().message.find("one lower bound"), std::string::npos) << range.error().message;
  const auto nolist = FlagRegistry::parse("dialect: sglang\nflag_list: nope.tsv\n", "s.yaml");
  ASSERT_FALSE(nolist);
  EXPECT_NE(nolist.error().message.find("no flag list data/flags/nope.tsv was compiled in"), std::string::npos);
}

TEST(FlagRegistry, SimOverlayIsSelectedByProgramWord) {
  auto reg = flag_registry(Dialect::sglang);
  ASSERT_TRUE(reg);
  const std::vector<std::string> sim{"/opt/bin/servebench", "serve-sim"};
  const std::vector<std::string> real{"python3", "-m", "sglang.launch_server"};
  const FlagOverlay* overlay = (*reg)->overlay_for(sim);
  ASSERT_NE(overlay, nullptr);
  EXPECT_TRUE(overlay->owns("--hw"));
  EXPECT_TRUE(overlay->owns("--model"));
  EXPECT_TRUE(overlay->owns("--sim-time-scale"));
  EXPECT_FALSE(overlay->owns("--tp-size"));
  EXPECT_EQ((*reg)->overlay_for(real), nullptr);
}

TEST(Dialect, NamesRoundTrip) {
  for (Dialect d : {Dialect::sglang, Dialect::vllm, Dialect::llamacpp, Dialect::trtllm, Dialect::generic}) {
    auto parsed = parse_dialect(to_string(d));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, d);
  }
  EXPECT_FALSE(parse_dialect("sim"));
}

}  // namespace
}  // namespace servebench::flags
