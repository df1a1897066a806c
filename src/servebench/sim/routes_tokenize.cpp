// POST /tokenize, /detokenize (and /v1/ spellings) with the simulator's documented tokenizer
// (tokenizer.hpp): SGLang's shapes; max_model_len is the deployment's context length.
#include "servebench/sim/route_errors.hpp"
#include "servebench/sim/routes.hpp"
#include "servebench/wire/response_encoder.hpp"
#include "servebench/wire/server_request.hpp"

namespace servebench::sim {
namespace {

http::Response tokenize(const SimServer::State& state, const http::ServerRequest& request) {
  auto parsed = wire::parse_tokenize_request(request.body);
  if (!parsed) throw RouteError(400, parsed.error().message);
  const std::int32_t bos = state.tokenizer.specials().bos;
  std::vector<std::vector<std::int32_t>> all;
  for (const auto& prompt : parsed->prompts) {
    std::vector<std::int32_t> ids;
    if (parsed->add_special_tokens && bos >= 0) ids.push_back(bos);
    const auto body = state.tokenizer.encode(prompt);
    ids.insert(ids.end(), body.begin(), body.end());
    all.push_back(std::move(ids));
  }
  std::string out;
  if (parsed->batch) {
    wire::encode_batch_tokenize_response(out, all, state.deployment().context_length);
  } else {
    wire::encode_tokenize_response(out, all.front(), state.deployment().context_length);
  }
  return json_ok(std::move(out));
}

http::Response detokenize(const SimServer::State& state, const http::ServerRequest& request) {
  auto parsed = wire::parse_detokenize_request(request.body);
  if (!parsed) throw RouteError(400, parsed.error().message);
  const auto mode = parsed->skip_special_tokens ? SpecialTokens::skip : SpecialTokens::render;
  std::vector<std::string> texts;
  for (const auto& ids : parsed->tokens) {
    auto text = state.tokenizer.decode(ids, mode);
    if (!text) throw RouteError(400, "tokens: " + text.error().message);
    texts.push_back(std::move(*text));
  }
  std::string out;
  if (parsed->batch) {
    wire::encode_batch_detokenize_response(out, texts);
  } else {
    wire::encode_detokenize_response(out, texts.front());
  }
  return json_ok(std::move(out));
}

}  // namespace

void add_tokenize_routes(http::Server& server, SimServer::State& state) {
  for (const char* path : {"/tokenize", "/v1/tokenize"}) {
    server.route(http::Method::post, path,
                 guarded([&state](const http::ServerRequest& r) { return tokenize(state, r); }));
  }
  for (const char* path : {"/detokenize", "/v1/detokenize"}) {
    server.route(http::Method::post, path,
                 guarded([&state](const http::ServerRequest& r) { return detokenize(state, r); }));
  }
}

}  // namespace servebench::sim
