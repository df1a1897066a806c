#pragma once
// What a run needs from the server besides generation: health, model, cache flush, counter
// snapshots around the measured window, facts and tokenizer. engine_control.hpp implements it over
// the engine adapters (engines); tests use a fake.
#include <optional>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "servebench/load/client_health.hpp"
#include "servebench/load/text_codec.hpp"
#include "servebench/load/vocabulary.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

// Server-side facts over the measured window, from counter deltas.
struct CounterWindow {
  std::optional<double> hit_rate{};       // Δcached / Δprompt tokens
  std::optional<double> accept_length{};  // speculative decoding, counter engines (vLLM, llama.cpp)
  std::optional<SimStepWindow> sim_steps{};  // serve-sim: its engine loop's step lateness
  // What the server reports when neither responses nor counters tell (SGLang's OpenAI routes).
  std::optional<double> reported_accept_length{};
};

class ServerControl {
 public:
  virtual ~ServerControl() = default;
  // Fails with ErrorKind::unreachable naming the URL and the reason when the server does not answer.
  virtual util::Result<void> check_health() = 0;
  // The first model of /v1/models; fails when the server lists none.
  virtual util::Result<std::string> first_model() = 0;
  // Flushes the prefix cache, waiting for the server to be idle; fails when the engine cannot.
  virtual util::Result<void> flush_cache() = 0;
  // Snapshots the counters at the start of the measured window (failures are remembered, not fatal).
  virtual void begin_window() = 0;
  // Snapshots again and returns the deltas; unknown values stay nullopt.
  virtual CounterWindow end_window() = 0;
  // The /server_info body (sglang keys) or null; facts the adapter learned (model, context, …).
  virtual boost::json::value server_info() = 0;
  virtual boost::json::object facts() = 0;
  // The ordinary token ids of the server's vocabulary, when the server reports its size.
  virtual std::optional<Vocabulary> vocabulary() = 0;
  // The server's tokenizer, or nullptr when it has none reachable over HTTP.
  virtual TextCodec* codec() = 0;
};

}  // namespace servebench::load
