#pragma once
// ServerControl over the engine adapters (engines) and a blocking control-plane client: the production
// implementation used by `servebench bench` and the campaign.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "servebench/engines/adapter.hpp"
#include "servebench/load/server_control.hpp"
#include "servebench/wire/client_request.hpp"

namespace servebench::load {

// Ordinary ids for token-id prompts. Tokenizers put special tokens at the start (Llama 2: 0–2) or
// at the end (Llama 3, Qwen, DeepSeek, GLM: above 128000), so prompts draw from
// [min(1000, size/32), min(size, 30000)), ordinary in all of them; an unknown size uses 32000.
Vocabulary safe_vocabulary(std::optional<std::int64_t> reported_size);

class EngineControl final : public ServerControl, public TextCodec {
 public:
  // A control for the server at `base_url` speaking `backend`'s engine; `api_key`, when set, is sent
  // as a bearer token on control requests too. Fails (bad_input) for a URL that is not plain http.
  static util::Result<std::unique_ptr<EngineControl>> create(wire::Backend backend, const std::string& base_url,
                                                             const std::string& api_key,
                                                             std::chrono::milliseconds timeout = std::chrono::seconds(60));
  ~EngineControl() override;
  // The model requests name; part of identity(), so cached corpus tokens are per model.
  void set_model(std::string model);

  util::Result<void> check_health() override;
  util::Result<std::string> first_model() override;
  util::Result<void> flush_cache() override;
  void begin_window() override;
  CounterWindow end_window() override;
  boost::json::value server_info() override;
  boost::json::object facts() override;
  std::optional<Vocabulary> vocabulary() override;
  TextCodec* codec() override { return this; }

  util::Result<std::vector<std::int32_t>> tokenize(std::string_view text, Specials specials) override;
  util::Result<std::string> detokenize(std::span<const std::int32_t> ids) override;
  std::string identity() const override;

 private:
  struct Impl;
  explicit EngineControl(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace servebench::load
