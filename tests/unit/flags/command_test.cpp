#include "servebench/flags/command.hpp"

#include <gtest/gtest.h>

namespace servebench::flags {
namespace {

NormalizedCommand norm(Dialect d, std::string_view command, std::vector<EnvVar> env = {}) {
  auto n = normalize_command(d, command, env);
  EXPECT_TRUE(n) << n.error().message;
  return n ? *n : NormalizedCommand{};
}

std::string fp(Dialect d, std::string_view command, std::vector<EnvVar> env = {}) {
  return fingerprint(norm(d, command, std::move(env)));
}

TEST(NormalizedCommand, CanonicalTextAndDigestArePinned) {
  const auto n = norm(Dialect::sglang,
                      "SGLANG_X=1 python3 -m sglang.launch_server --tp 2 --model-path m --disable-radix-cache --port 1");
  EXPECT_EQ(canonical_text(n),
            "servebench.command/1\ndialect sglang\nenv SGLANG_X=1\nflag --disable-radix-cache\n"
            "flag --model-path=m\nflag --tp-size=2\n");
  // Digest computed independently: printf '<the text above>' | sha256sum
  EXPECT_EQ(fingerprint(n), "sha256:f41074a88a81e3d61e8d871783b8319df54346d316c8c19c18bba052c1dc060b");
}

TEST(NormalizedCommand, FlagOrderDoesNotMatter) {
  EXPECT_EQ(fp(Dialect::sglang, "--tp-size 4 --mem-fraction-static 0.85 --disable-radix-cache"),
            fp(Dialect::sglang, "--disable-radix-cache --mem-fraction-static 0.85 --tp-size 4"));
}

TEST(NormalizedCommand, EqualsFormMatchesSpaceForm) {
  EXPECT_EQ(fp(Dialect::sglang, "--tp-size=4 --kv-cache-dtype=fp8_e4m3"),
            fp(Dialect::sglang, "--tp-size 4 --kv-cache-dtype fp8_e4m3"));
}

TEST(NormalizedCommand, ValuesStillMatter) {
  EXPECT_NE(fp(Dialect::sglang, "--tp-size 4"), fp(Dialect::sglang, "--tp-size 8"));
}

TEST(NormalizedCommand, AliasesResolveToCanonicalNames) {
  const auto n = norm(Dialect::sglang, "python3 -m sglang.launch_server --model org/m --tp 4 --ep 2");
  ASSERT_EQ(n.flags.size(), 3u);
  EXPECT_EQ(n.flags[0], (CommandFlag{"--ep-size", "2"}));
  EXPECT_EQ(n.flags[1], (CommandFlag{"--model-path", "org/m"}));
  EXPECT_EQ(n.flags[2], (CommandFlag{"--tp-size", "4"}));
  EXPECT_EQ(fingerprint(n), fp(Dialect::sglang, "--model-path org/m --tp-size 4 --ep-size 2"));
}

TEST(NormalizedCommand, ExplicitDefaultIsADifferentCommand) {
  const auto with = norm(Dialect::sglang, "--tp-size 4 --ep-size 1");
  const auto without = norm(Dialect::sglang, "--tp-size 4");
  EXPECT_NE(fingerprint(with), fingerprint(without));
  auto defaults = defaults_left_explicit(with);
  ASSERT_TRUE(defaults);
  ASSERT_EQ(defaults->size(), 1u);
  EXPECT_EQ(defaults->front(), (CommandFlag{"--ep-size", "1"}));
  auto none = defaults_left_explicit(norm(Dialect::sglang, "--tp-size 4 --ep-size 4"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(NormalizedCommand, HostPortAndLoggingAreDropped) {
  const auto n = norm(Dialect::sglang,
                      "python3 -m sglang.launch_server --model-path m --host {{HOST_IP}} --port={port} "
                      "--log-level debug --api-key secret --enable-metrics");
  EXPECT_EQ(fingerprint(n), fp(Dialect::sglang, "--model-path m"));
  ASSERT_EQ(n.dropped.size(), 5u);
  EXPECT_EQ(n.dropped[0], (CommandFlag{"--host", "{{HOST_IP}}"}));
  EXPECT_EQ(n.dropped[1], (CommandFlag{"--port", "{port}"}));
  EXPECT_EQ(n.dropped[4], (CommandFlag{"--enable-metrics", std::nullopt}));
  EXPECT_EQ(canonical_text(n).find("HOST_IP"), std::string::npos);
}

TEST(NormalizedCommand, OnlyBehaviouralEnvironmentCountsSorted) {
  const auto n = norm(Dialect::sglang, "SGLANG_SIMULATE_ACC_LEN=3 CUDA_VISIBLE_DEVICES=0,1 NCCL_IB_DISABLE=1 HF_TOKEN=x "
                                       "python3 -m sglang.launch_server --tp 2");
  ASSERT_EQ(n.env.size(), 2u);
  EXPECT_EQ(n.env[0], (EnvVar{"NCCL_IB_DISABLE", "1"}));
  EXPECT_EQ(n.env[1], (EnvVar{"SGLANG_SIMULATE_ACC_LEN", "3"}));
  EXPECT_EQ(n.dropped_env.size(), 2u);
  EXPECT_NE(fingerprint(n), fp(Dialect::sglang, "--tp 2"));
  EXPECT_EQ(fingerprint(n), fp(Dialect::sglang, "CUDA_VISIBLE_DEVICES=4 --tp 2",
                               {{"SGLANG_SIMULATE_ACC_LEN", "3"}, {"NCCL_IB_DISABLE", "1"}}));
}

TEST(NormalizedCommand, CommandEnvironmentOverridesLaunchEnvironment) {
  const auto n = norm(Dialect::sglang, "env SGLANG_X=2 python3 -m sglang.launch_server", {{"SGLANG_X", "1"}});
  ASSERT_EQ(n.env.size(), 1u);
  EXPECT_EQ(n.env[0], (EnvVar{"SGLANG_X", "2"}));
}

TEST(NormalizedCommand, SimulatorCommandFingerprintsLikeSglang) {
  const std::string flags = "--model-path org/glm --tp-size 4 --speculative-algorithm EAGLE --speculative-num-steps 5";
  const auto real = fp(Dialect::sglang, "python3 -m sglang.launch_server " + flags + " --host 0.0.0.0 --port 30000");
  const auto sim = norm(Dialect::sglang, "servebench serve-sim --hw h200 --model glm-4.5-air " + flags +
                                             " --sim-time-scale 0.01 --log-level warning --port {port}");
  EXPECT_EQ(fingerprint(sim), real);
  EXPECT_TRUE(sim.unknown.empty());
  ASSERT_GE(sim.dropped.size(), 4u);
  EXPECT_EQ(sim.dropped[0], (CommandFlag{"--hw", "h200"}));
  EXPECT_EQ(sim.dropped[1], (CommandFlag{"--model", "glm-4.5-air"}));
  // Outside serve-sim, --model is SGLang's alias of --model-path.
  EXPECT_EQ(norm(Dialect::sglang, "--model glm").flags.front(), (CommandFlag{"--model-path", "glm"}));
}

TEST(NormalizedCommand, DialectIsPartOfTheHash) {
  EXPECT_NE(fp(Dialect::sglang, "--foo 1"), fp(Dialect::generic, "--foo 1"));
}

TEST(NormalizedCommand, VllmPositionalModelAndSnakeCase) {
  const auto a = fp(Dialect::vllm, "vllm serve meta/llama -tp 2 --max_model_len 8192 --port 8000");
  EXPECT_EQ(a, fp(Dialect::vllm, "vllm serve --model meta/llama --tensor-parallel-size 2 --max-model-len 8192"));
  EXPECT_EQ(a, fp(Dialect::vllm, "python3 -m vllm.entrypoints.openai.api_server --model=meta/llama "
                                 "--tensor_parallel_size=2 --max-model-len 8192"));
  EXPECT_NE(a, fp(Dialect::vllm, "vllm serve meta/other -tp 2 --max-model-len 8192"));
}

TEST(NormalizedCommand, LlamacppShortSpellings) {
  EXPECT_EQ(fp(Dialect::llamacpp, "llama-server -m x.gguf -c 4096 -np 8 -fa on --seed -1 --port 8080 --metrics"),
            fp(Dialect::llamacpp, "llama-server --model x.gguf --ctx-size 4096 --parallel 8 --flash-attn on --seed -1"));
  const auto n = norm(Dialect::llamacpp, "llama-server --seed -1");
  EXPECT_EQ(n.flags.front(), (CommandFlag{"--seed", "-1"}));
}

TEST(NormalizedCommand, UnknownFlagsAreKeptVerbatimAndListed) {
  const auto n = norm(Dialect::sglang, "--tp 2 --new-knob fast --other-switch --third=x");
  ASSERT_EQ(n.unknown.size(), 3u);
  EXPECT_EQ(n.unknown[0], "--new-knob");
  EXPECT_EQ(n.unknown[1], "--other-switch");
  ASSERT_EQ(n.flags.size(), 4u);
  EXPECT_EQ(n.flags[0], (CommandFlag{"--new-knob", "fast"}));
  EXPECT_EQ(n.flags[1], (CommandFlag{"--other-switch", std::nullopt}));
  EXPECT_EQ(n.flags[2], (CommandFlag{"--third", "x"}));
}

TEST(NormalizedCommand, RepeatedFlagsKeepTheirOrder) {
  const auto ab = norm(Dialect::vllm, "--served-model-name x --chat-template a --chat-template b");
  ASSERT_EQ(ab.flags.size(), 2u);
  EXPECT_EQ(ab.flags[0].value, "a");
  EXPECT_EQ(ab.flags[1].value, "b");
  EXPECT_NE(fingerprint(ab), fp(Dialect::vllm, "--chat-template b --chat-template a"));
}

TEST(NormalizedCommand, ManyValuedFlagTakesWordsUpToNextFlag) {
  const auto n = norm(Dialect::sglang, "--cuda-graph-bs 1 2 4 8 --tp 2");
  ASSERT_EQ(n.flags.size(), 2u);
  EXPECT_EQ(n.flags[0], (CommandFlag{"--cuda-graph-bs", "1 2 4 8"}));
}

TEST(NormalizedCommand, MissingValueIsAnError) {
  auto n = normalize_command(Dialect::sglang, "--model-path m --tp-size");
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().kind, util::ErrorKind::bad_input);
  EXPECT_NE(n.error().message.find("--tp-size needs a value"), std::string::npos);
}

TEST(NormalizedCommand, NewlinesInValuesAreEscaped) {
  std::vector<std::string> words{"--chat-template", "a\nb\\c"};
  auto n = normalize(Dialect::sglang, words);
  ASSERT_TRUE(n);
  EXPECT_NE(canonical_text(*n).find("flag --chat-template=a\\nb\\\\c\n"), std::string::npos);
}

TEST(CommandChange, DiffListsAddedRemovedChanged) {
  const auto before = norm(Dialect::sglang, "--tp 4 --ep-size 4 --moe-runner-backend deep_gemm --speculative-adaptive");
  const auto after = norm(Dialect::sglang, "SGLANG_X=1 --tp 4 --moe-runner-backend flashinfer_trtllm "
                                           "--speculative-num-steps 5");
  const auto changes = diff(before, after);
  ASSERT_EQ(changes.size(), 5u);
  EXPECT_EQ(to_string(changes[0]), "- --ep-size 4");
  EXPECT_EQ(to_string(changes[1]), "~ --moe-runner-backend deep_gemm -> flashinfer_trtllm");
  EXPECT_EQ(to_string(changes[2]), "- --speculative-adaptive");
  EXPECT_EQ(to_string(changes[3]), "+ --speculative-num-steps 5");
  EXPECT_EQ(to_string(changes[4]), "+ SGLANG_X=1");
  EXPECT_TRUE(diff(before, before).empty());
}

TEST(CommandChange, DialectChangeIsReported) {
  const auto changes = diff(norm(Dialect::sglang, "--x 1"), norm(Dialect::generic, "--x 1"));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(to_string(changes[0]), "~ dialect sglang -> generic");
}

}  // namespace
}  // namespace servebench::flags
