// The simulator's request handling before the engine: a POST body of /v1/completions,
// /v1/chat/completions, /generate (parsed, then planned into engine requests with the model's
// tokenizer, oracle on or off), /tokenize or /detokenize (parsed, then encoded or decoded) — what
// the route handlers run on the IO thread, without the socket.
#include <string>

#include "fuzz_input.hpp"
#include "servebench/sim/model_card.hpp"
#include "servebench/sim/request_plan.hpp"
#include "servebench/sim/tokenizer.hpp"
#include "servebench/wire/server_request.hpp"

namespace {

using namespace servebench;

const sim::ModelCard& card() {
  static const sim::ModelCard c = [] {
    auto m = sim::load_model_card("llama-3.1-8b");
    fuzz::expect(m.has_value(), "the shipped model card loads");
    return std::move(*m);
  }();
  return c;
}

void inference(wire::ServerRoute route, bool oracle, std::string_view body, const sim::Tokenizer& tokenizer) {
  const auto request = wire::parse_inference_request(route, body);
  if (!request) return;
  sim::PlanOptions options;
  options.oracle = oracle ? sim::OracleMode::on : sim::OracleMode::off;
  options.context_length = card().context_length;
  std::optional<std::string> tool;
  if (oracle && !request->tool_names.empty()) tool = request->tool_names.front();
  const auto plan = sim::plan_request(*request, tokenizer, options, tool);
  fuzz::expect(plan.items.size() == (route == wire::ServerRoute::chat_completions ? 1 : request->prompts.size()),
               "one engine request per prompt");
  if (oracle) {
    for (std::size_t i = 0; i < plan.items.size(); ++i) (void)sim::oracle_text(*request, i, tokenizer);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sim::Tokenizer tokenizer = sim::Tokenizer::for_model(card());
  fuzz::Input in(data, size);
  const std::uint8_t selector = in.take_byte();
  const bool oracle = selector & 0x80;
  switch (selector % 5) {
    case 0: inference(wire::ServerRoute::completions, oracle, in.rest(), tokenizer); break;
    case 1: inference(wire::ServerRoute::chat_completions, oracle, in.rest(), tokenizer); break;
    case 2: inference(wire::ServerRoute::generate, oracle, in.rest(), tokenizer); break;
    case 3:
      if (const auto r = wire::parse_tokenize_request(in.rest())) {
        for (const auto& p : r->prompts) (void)tokenizer.encode(p);
      }
      break;
    default:
      if (const auto r = wire::parse_detokenize_request(in.rest())) {
        const auto mode = r->skip_special_tokens ? sim::SpecialTokens::skip : sim::SpecialTokens::render;
        for (const auto& ids : r->tokens) (void)tokenizer.decode(ids, mode);
      }
      break;
  }
  return 0;
}
