#pragma once
// Constructors of the per-engine adapters (internal to engines; make_adapter() is the public door).
#include <memory>

#include "servebench/engines/adapter.hpp"

namespace servebench::engines {

// The simulator speaks SGLang's control plane and adds exact speculative counters.
enum class SglangFlavour { sglang, sim };

std::unique_ptr<EngineAdapter> make_sglang_adapter(SglangFlavour flavour, const util::Clock& clock, Pacer& pacer);
std::unique_ptr<EngineAdapter> make_vllm_adapter(const util::Clock& clock, Pacer& pacer);
std::unique_ptr<EngineAdapter> make_llamacpp_adapter(const util::Clock& clock, Pacer& pacer);
std::unique_ptr<EngineAdapter> make_trtllm_adapter(const util::Clock& clock, Pacer& pacer);

}  // namespace servebench::engines
