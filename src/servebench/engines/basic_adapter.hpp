#pragma once
// The OpenAI-compatible baseline (internal to engines): what every server offers (/v1/models,
// /health) and, for everything else, failures that name the engine and the alternative. It is the
// `openai` engine's adapter; the engine adapters derive from it and override what they support.
#include <boost/json/value.hpp>

#include "servebench/engines/adapter.hpp"

namespace servebench::engines {

class BasicAdapter : public EngineAdapter {
 public:
  BasicAdapter(Engine engine, const util::Clock& clock, Pacer& pacer)
      : m_engine(engine), m_clock(clock), m_pacer(pacer) {}

  Engine engine() const override { return m_engine; }
  util::Result<void> flush(http::Exchange& ex, util::TimePoint deadline) override;
  util::Result<void> wait_idle(http::Exchange& ex, util::TimePoint deadline) override;
  util::Result<Counters> snapshot(http::Exchange& ex) override;
  util::Result<double> hit_rate(const Counters& before, const Counters& after) const override;
  std::optional<double> accept_length(const Counters& before, const Counters& after) const override;
  util::Result<wire::ServerFacts> facts(http::Exchange& ex) override;
  util::Result<wire::TokenIds> tokenize(http::Exchange& ex, std::string_view text, SpecialTokens special) override;
  util::Result<std::string> detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens) override;
  util::Result<std::optional<std::int64_t>> vocab_size(http::Exchange& ex) override;
  util::Result<std::string> models(http::Exchange& ex) override;
  util::Result<Health> health(http::Exchange& ex) override;

 protected:
  // "<engine> at <url> does not support <what>: <alternative>" (ErrorKind::failed).
  util::Error unsupported(const http::Exchange& ex, std::string_view what, std::string_view alternative) const;
  // GET /v1/models into `facts` (model, context length from max_model_len) and its raw text;
  // returns the body for engine-specific fields.
  util::Result<boost::json::value> read_models(http::Exchange& ex, wire::ServerFacts& facts, std::string& raw) const;
  const util::Clock& clock() const { return m_clock; }
  Pacer& pacer() const { return m_pacer; }

 private:
  Engine m_engine;
  const util::Clock& m_clock;
  Pacer& m_pacer;
};

// Appends `"route": body` to a raw-JSON object under construction ("{" ... "}").
void append_raw(std::string& raw, std::string_view route, const boost::json::value& body);
// Token ids from a JSON array (ints, or llama.cpp's {"id":n,"piece":..} objects); fails naming `what`.
util::Result<wire::TokenIds> token_ids_of(const boost::json::value* array, std::string_view what);
// JSON array text of token ids.
std::string token_array(std::span<const std::int32_t> tokens);

// How an engine spells its tokenize call: POST `route` with {text_key: text, special_key: bool}
// (special_key empty: not sent) answering {"tokens": [...]}.
struct TokenizeRoute {
  std::string_view route = "/tokenize";
  std::string_view text_key = "prompt";
  std::string_view special_key = "add_special_tokens";
};
util::Result<wire::TokenIds> post_tokenize(http::Exchange& ex, const TokenizeRoute& r, std::string_view text,
                                     SpecialTokens special);
// POST /detokenize {"tokens": [...]}; the text is under `text_key` of the answer.
util::Result<std::string> post_detokenize(http::Exchange& ex, std::span<const std::int32_t> tokens,
                                          std::string_view text_key);

}  // namespace servebench::engines
