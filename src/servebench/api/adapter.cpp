#include "servebench/api/adapter.hpp"

#include <array>
#include <thread>

#include <boost/json.hpp>

#include "servebench/api/basic_adapter.hpp"
#include "servebench/api/engine_adapters.hpp"

namespace servebench::api {
namespace {

constexpr std::array<std::pair<Engine, std::string_view>, 6> k_engine_names{{
    {Engine::sglang, "sglang"},
    {Engine::vllm, "vllm"},
    {Engine::llamacpp, "llamacpp"},
    {Engine::trtllm, "trtllm"},
    {Engine::openai, "openai"},
    {Engine::sim, "sim"},
}};

class SleepingPacer final : public Pacer {
 public:
  void pause(util::Nanos d) override { std::this_thread::sleep_for(d); }
};

}  // namespace

std::string_view to_string(Engine e) {
  for (const auto& [engine, name] : k_engine_names) {
    if (engine == e) return name;
  }
  SB_CHECK(false);
  return {};
}

util::Result<Engine> parse_engine(std::string_view name) {
  for (const auto& [engine, n] : k_engine_names) {
    if (n == name) return engine;
  }
  return util::failf(util::ErrorKind::bad_input,
                     "unknown engine '{}'; expected sglang, vllm, llamacpp, trtllm, openai or sim", name);
}

Dialect dialect_of(Engine e) {
  switch (e) {
    case Engine::sglang:
    case Engine::sim: return Dialect::sglang;
    case Engine::vllm: return Dialect::vllm;
    case Engine::llamacpp: return Dialect::llamacpp;
    case Engine::trtllm: return Dialect::trtllm;
    case Engine::openai: return Dialect::generic;
  }
  return Dialect::generic;
}

Backend default_backend(Engine e) {
  switch (e) {
    case Engine::sglang: return Backend::sglang;
    case Engine::vllm: return Backend::vllm;
    case Engine::llamacpp: return Backend::llamacpp;
    case Engine::trtllm: return Backend::trtllm;
    case Engine::openai: return Backend::openai;
    case Engine::sim: return Backend::sim;
  }
  return Backend::openai;
}

Engine engine_of(Backend b) {
  switch (b) {
    case Backend::sglang:
    case Backend::sglang_oai:
    case Backend::sglang_oai_chat: return Engine::sglang;
    case Backend::vllm:
    case Backend::vllm_chat: return Engine::vllm;
    case Backend::llamacpp: return Engine::llamacpp;
    case Backend::trtllm: return Engine::trtllm;
    case Backend::openai:
    case Backend::openai_chat: return Engine::openai;
    case Backend::sim: return Engine::sim;
  }
  return Engine::openai;
}

boost::json::object to_json(const ServerFacts& f) {
  namespace json = boost::json;
  const auto opt = [](const std::optional<std::int64_t>& v) { return v ? json::value(*v) : json::value(nullptr); };
  json::object o{{"engine", f.engine},
                 {"version", f.version},
                 {"model", f.model},
                 {"context_length", opt(f.context_length)},
                 {"kv_pool_tokens", opt(f.kv_pool_tokens)},
                 {"max_running_requests", opt(f.max_running_requests)},
                 {"speculative", nullptr}};
  if (f.speculative) {
    o["speculative"] = json::object{{"algorithm", f.speculative->algorithm},
                                    {"num_steps", opt(f.speculative->num_steps)},
                                    {"eagle_topk", opt(f.speculative->eagle_topk)},
                                    {"num_draft_tokens", opt(f.speculative->num_draft_tokens)}};
  }
  return o;
}

Pacer& sleeping_pacer() {
  static SleepingPacer pacer;
  return pacer;
}

std::unique_ptr<EngineAdapter> make_adapter(Engine engine, const util::Clock& clock, Pacer& pacer) {
  switch (engine) {
    case Engine::sglang: return make_sglang_adapter(SglangFlavour::sglang, clock, pacer);
    case Engine::sim: return make_sglang_adapter(SglangFlavour::sim, clock, pacer);
    case Engine::vllm: return make_vllm_adapter(clock, pacer);
    case Engine::llamacpp: return make_llamacpp_adapter(clock, pacer);
    case Engine::trtllm: return make_trtllm_adapter(clock, pacer);
    case Engine::openai: return std::make_unique<BasicAdapter>(Engine::openai, clock, pacer);
  }
  SB_CHECK(false);
  return nullptr;
}

util::Result<std::unique_ptr<EngineAdapter>> make_adapter(std::string_view engine, const util::Clock& clock,
                                                          Pacer& pacer) {
  auto e = parse_engine(engine);
  if (!e) return std::unexpected(e.error());
  return make_adapter(*e, clock, pacer);
}

std::optional<double> accept_length_from_meta(std::int64_t completion_tokens, std::int64_t spec_verify_ct) {
  if (spec_verify_ct <= 0) return std::nullopt;
  return static_cast<double>(completion_tokens) / static_cast<double>(spec_verify_ct);
}

}  // namespace servebench::api
