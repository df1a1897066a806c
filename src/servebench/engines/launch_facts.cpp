#include "servebench/engines/launch_facts.hpp"

#include <charconv>

namespace servebench::engines {
namespace {

// A flag's value, or the environment variable llama-server reads in its place; nullopt when
// neither is given. A switch given without a value reads as "".
std::optional<std::string> setting(const flags::NormalizedCommand& c, std::string_view flag, std::string_view env) {
  for (const auto& f : c.flags) {
    if (f.name == flag) return f.value.value_or("");
  }
  for (const auto& e : c.env) {
    if (e.name == env) return e.value;
  }
  return std::nullopt;
}

std::optional<std::int64_t> integer(const std::optional<std::string>& text) {
  std::int64_t v = 0;
  if (!text || text->empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc{} || end != text->data() + text->size()) return std::nullopt;
  return v;
}

bool truthy(const std::optional<std::string>& v) {
  return v && (v->empty() || *v == "1" || *v == "true" || *v == "on" || *v == "enabled");
}

// llama-server (tools/server/server.cpp): --parallel -1 (its default) means 4 slots and a unified
// KV cache, whatever --no-kv-unified says; otherwise the cache is unified only when asked.
void apply_llamacpp(const flags::NormalizedCommand& c, wire::ServerFacts& facts) {
  const auto parallel = integer(setting(c, "--parallel", "LLAMA_ARG_N_PARALLEL"));
  const bool automatic = !parallel || *parallel < 0;
  const bool unified = automatic || (truthy(setting(c, "--kv-unified", "LLAMA_ARG_KV_UNIFIED")) &&
                                     !setting(c, "--no-kv-unified", ""));
  if (!unified || !facts.context_length) return;
  // Each slot reports the whole context (capped by the model's training context and by
  // --kv-unified-per-slot): the pool is -c when given, else slots × the per-slot cap, else n_ctx.
  const auto context = integer(setting(c, "--ctx-size", "LLAMA_ARG_CTX_SIZE"));
  const auto per_slot = integer(setting(c, "--kv-unified-per-slot", "LLAMA_ARG_KV_UNIFIED_PER_SLOT"));
  std::int64_t pool = *facts.context_length;
  if (context && *context > 0) {
    pool = std::max(pool, *context);
  } else if (per_slot && *per_slot > 0 && facts.max_running_requests) {
    pool = std::max(pool, *per_slot * *facts.max_running_requests);
  }
  facts.kv_pool_tokens = pool;
}

}  // namespace

void apply_launch(Engine engine, const flags::NormalizedCommand& launch, wire::ServerFacts& facts) {
  if (engine == Engine::llamacpp) apply_llamacpp(launch, facts);
}

}  // namespace servebench::engines
