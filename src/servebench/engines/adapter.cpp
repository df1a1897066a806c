#include "servebench/engines/adapter.hpp"

#include <array>
#include <thread>

#include <boost/json.hpp>

#include "servebench/engines/basic_adapter.hpp"
#include "servebench/engines/engine_adapters.hpp"

namespace servebench::engines {
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

flags::Dialect dialect_of(Engine e) {
  switch (e) {
    case Engine::sglang:
    case Engine::sim: return flags::Dialect::sglang;
    case Engine::vllm: return flags::Dialect::vllm;
    case Engine::llamacpp: return flags::Dialect::llamacpp;
    case Engine::trtllm: return flags::Dialect::trtllm;
    case Engine::openai: return flags::Dialect::generic;
  }
  return flags::Dialect::generic;
}

wire::Backend default_backend(Engine e) {
  switch (e) {
    case Engine::sglang: return wire::Backend::sglang;
    case Engine::vllm: return wire::Backend::vllm;
    case Engine::llamacpp: return wire::Backend::llamacpp;
    case Engine::trtllm: return wire::Backend::trtllm;
    case Engine::openai: return wire::Backend::openai;
    case Engine::sim: return wire::Backend::sim;
  }
  return wire::Backend::openai;
}

Engine engine_of(wire::Backend b) {
  switch (b) {
    case wire::Backend::sglang:
    case wire::Backend::sglang_oai:
    case wire::Backend::sglang_oai_chat: return Engine::sglang;
    case wire::Backend::vllm:
    case wire::Backend::vllm_chat: return Engine::vllm;
    case wire::Backend::llamacpp: return Engine::llamacpp;
    case wire::Backend::trtllm: return Engine::trtllm;
    case wire::Backend::openai:
    case wire::Backend::openai_chat: return Engine::openai;
    case wire::Backend::sim: return Engine::sim;
  }
  return Engine::openai;
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

}  // namespace servebench::engines
