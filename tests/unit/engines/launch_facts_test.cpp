// What a llama-server launch command adds to the facts its HTTP API gives: whether its KV cache is
// unified, which /props cannot tell (tests/fixtures/llamacpp/README.md: a server started without
// -np reports 4 slots of the whole -c each).
#include "servebench/engines/launch_facts.hpp"

#include <gtest/gtest.h>

namespace servebench::engines {
namespace {

// The facts as the adapter reads them from /props: `slots` slots of `per_slot` tokens each.
wire::ServerFacts read_over_http(std::int64_t slots, std::int64_t per_slot) {
  wire::ServerFacts f;
  f.engine = "llamacpp";
  f.max_running_requests = slots;
  f.context_length = per_slot;
  f.kv_pool_tokens = slots * per_slot;
  return f;
}

std::optional<std::int64_t> pool_after(const std::string& command, wire::ServerFacts facts,
                                       std::vector<flags::EnvVar> env = {}) {
  auto launch = flags::normalize_command(flags::Dialect::llamacpp, command, env);
  EXPECT_TRUE(launch) << command;
  if (launch) apply_launch(Engine::llamacpp, *launch, facts);
  return facts.kv_pool_tokens;
}

TEST(LaunchFacts, SlotsGivenDivideTheContext) {
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 4096 -np 4", read_over_http(4, 1024)), 4096);
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 4096 --parallel=4 --no-kv-unified", read_over_http(4, 1024)), 4096);
}

// No -np: llama-server picks 4 slots that share one unified cache of -c (each slot may use all of it).
TEST(LaunchFacts, AutomaticSlotsShareOneUnifiedCache) {
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 2048", read_over_http(4, 2048)), 2048);
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 2048 -np -1 --no-kv-unified", read_over_http(4, 2048)), 2048);
  // -c 0 (the model's training context): each slot's n_ctx is the whole pool.
  EXPECT_EQ(pool_after("llama-server -m x.gguf", read_over_http(4, 4096)), 4096);
}

TEST(LaunchFacts, AskedForUnifiedCache) {
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 8192 -np 8 -kvu", read_over_http(8, 8192)), 8192);
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 8192", read_over_http(8, 8192),
                       {{"LLAMA_ARG_N_PARALLEL", "8"}, {"LLAMA_ARG_KV_UNIFIED", "true"}}),
            8192);
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 8192", read_over_http(8, 1024), {{"LLAMA_ARG_N_PARALLEL", "8"}}),
            8192);  // not unified: the adapter's n_ctx × slots stands
}

// A slot capped below the pool: by the model's training context (-c beyond it), or per slot.
TEST(LaunchFacts, CappedSlotsStillShareTheWholePool) {
  EXPECT_EQ(pool_after("llama-server -m x.gguf -c 65536", read_over_http(4, 32768)), 65536);
  EXPECT_EQ(pool_after("llama-server -m x.gguf -np 4 -kvu --kv-unified-per-slot 1024", read_over_http(4, 1024)), 4096);
}

TEST(LaunchFacts, OtherEnginesAreUnchanged) {
  auto launch = flags::normalize_command(flags::Dialect::sglang, "python -m sglang.launch_server --model-path m");
  ASSERT_TRUE(launch);
  wire::ServerFacts f = read_over_http(4, 1024);
  apply_launch(Engine::sglang, *launch, f);
  EXPECT_EQ(f.kv_pool_tokens, 4096);
}

}  // namespace
}  // namespace servebench::engines
