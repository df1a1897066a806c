// Every engine adapter's control-plane parsers — /server_info, /get_server_info, /model_info,
// /version, /props, /slots, /v1/models, /metrics, /tokenize, /detokenize, /health — against a
// server whose every answer is the fuzz input (status and body), without sockets.
#include <array>
#include <string>

#include "fuzz_input.hpp"
#include "servebench/engines/adapter.hpp"
#include "servebench/util/clock.hpp"

namespace {

using namespace servebench;

class FuzzExchange final : public http::Exchange {
 public:
  FuzzExchange(int status, std::string_view body) : m_status(status), m_body(body) {}
  util::Result<http::Response> send(const http::Request&, std::chrono::milliseconds) override {
    return http::Response{m_status, m_body, "application/json"};
  }
  const std::string& base_url() const override { return m_url; }

 private:
  int m_status;
  std::string m_body;
  std::string m_url = "http://127.0.0.1:30000";
};

class ClockPacer final : public engines::Pacer {
 public:
  explicit ClockPacer(util::ManualClock& clock) : m_clock(clock) {}
  void pause(util::Nanos d) override { m_clock.advance(d); }

 private:
  util::ManualClock& m_clock;
};

constexpr std::array k_engines{engines::Engine::sglang, engines::Engine::vllm,   engines::Engine::llamacpp,
                               engines::Engine::trtllm, engines::Engine::openai, engines::Engine::sim};
constexpr std::array k_statuses{200, 200, 200, 400, 404, 500, 503};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const std::uint8_t selector = in.take_byte();
  util::ManualClock clock;
  ClockPacer pacer(clock);
  auto adapter = engines::make_adapter(k_engines[selector % k_engines.size()], clock, pacer);
  FuzzExchange ex(k_statuses[(selector >> 3) % k_statuses.size()], in.rest());
  const std::array<std::int32_t, 3> ids{1, 2, 3};
  const auto deadline = clock.now() + std::chrono::seconds(5);
  switch ((selector >> 6) & 3) {
    case 0:
      (void)adapter->facts(ex);
      (void)adapter->models(ex);
      break;
    case 1:
      if (const auto before = adapter->snapshot(ex)) {
        (void)adapter->hit_rate(engines::Counters{}, *before);
        (void)adapter->accept_length(engines::Counters{}, *before);
      }
      (void)adapter->wait_idle(ex, deadline);
      break;
    case 2:
      (void)adapter->tokenize(ex, "hello world", engines::SpecialTokens::add);
      (void)adapter->detokenize(ex, ids);
      (void)adapter->vocab_size(ex);
      break;
    default:
      (void)adapter->health(ex);
      (void)adapter->flush(ex, deadline);
      break;
  }
  return 0;
}
